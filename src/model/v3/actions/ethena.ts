/** Ethena staking: USDe staked for tsUSDe, and tsUSDe handed back for time-locked USDe. */
import { ETHENA_OP, ETHENA_TSUSDE, ETHENA_USDE, loadTimelockedAmount } from '../../tlb/ethena.js';
import { JETTON_OP } from '../../tlb/jetton.js';
import { parseJettonInternalTransfer } from '../decode.js';
import { defineMatcher, detailsOf, found, isCall, replies, type Block } from './block.js';

const PROVIDER = 'ethena';

/**
 * A withdrawal request, anchored at the user's transfer of tsUSDe to their own wallet: its internal transfer to
 * the tsUSDe master, the master's notification to the pool, the pool's mint and the time-locked USDe transfer to
 * the user's wallet. Both wallets must be the user's, of the masters the messages name.
 */
export const ethenaWithdrawalRequest = defineMatcher({
  name: 'ethena_withdrawal_request',
  addressKeys: { stake_withdrawal_request: ['stake_holder', 'pool', 'asset'] },
  async match(b, info) {
    if (!isCall(b, JETTON_OP.transfer)) return null;
    /** Each step's blocks that open the rest of the chain, with their excess and bounce replies. */
    const chain = (from: Block, ops: readonly number[]): Block[] | null => {
      const [op, ...rest] = ops;
      const out: Block[] = [];
      for (const n of from.next.filter((x) => isCall(x, op!))) {
        const tail = rest.length ? chain(n, rest) : [];
        if (tail) out.push(n, ...tail, ...replies(n));
      }
      return out.length ? out : null;
    };
    const covered = chain(b, [JETTON_OP.internalTransfer, JETTON_OP.transferNotification, JETTON_OP.mint, ETHENA_OP.timelockedTransfer]);
    if (!covered) return null;
    const first = (op: number): Block => covered.find((x) => isCall(x, op))!;
    const internal = first(JETTON_OP.internalTransfer).nodes[0]!;
    const mint = first(JETTON_OP.mint).nodes[0]!;
    const locked = first(ETHENA_OP.timelockedTransfer).nodes[0]!;
    const node = b.nodes[0]!;
    const source = node.source;
    const sourceWallet = await info.jettonWallet(node.destination!);
    const receiverWallet = await info.jettonWallet(locked.destination!);
    if (!sourceWallet || !receiverWallet || sourceWallet.owner !== source || receiverWallet.owner !== source) return null;
    if (sourceWallet.jetton !== internal.destination || receiverWallet.jetton !== locked.source) return null;
    return found({
      type: 'stake_withdrawal_request',
      blockType: 'ethena_withdrawal_request',
      include: [b, ...covered, ...replies(b)],
      failed: b.failed,
      details: {
        provider: PROVIDER,
        stake_holder: source,
        pool: mint.source,
        payout_nft: null,
        asset: sourceWallet.jetton,
        tokens_burnt: parseJettonInternalTransfer(internal.body).amount.toString(),
        tokens_minted: loadTimelockedAmount(locked.body).toString(),
      },
    });
  },
});

/** A deposit: the user's USDe transfer to the pool, followed by the tsUSDe minted to them. */
export const ethenaDeposit = defineMatcher({
  name: 'ethena_deposit',
  addressKeys: { stake_deposit: ['stake_holder', 'pool', 'asset', 'source_asset'] },
  async match(b) {
    const transfer = detailsOf(b, 'jetton_transfer');
    if (!transfer || transfer.asset !== ETHENA_USDE) return null;
    const mintBlock = b.next.find((n) => detailsOf(n, 'jetton_mint')?.asset === ETHENA_TSUSDE);
    const mint = mintBlock && detailsOf(mintBlock, 'jetton_mint');
    if (!mintBlock || !mint) return null;
    return found({
      type: 'stake_deposit',
      blockType: 'ethena_deposit',
      include: [b, mintBlock],
      failed: b.failed,
      details: {
        provider: PROVIDER,
        stake_holder: transfer.sender ?? null,
        pool: transfer.receiver ?? null,
        amount: transfer.amount ?? null,
        tokens_minted: mint.amount ?? null,
        asset: ETHENA_TSUSDE,
        source_asset: ETHENA_USDE,
      },
    });
  },
});
