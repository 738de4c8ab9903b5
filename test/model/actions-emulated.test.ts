/**
 * The local classifier against the reference on a recorded emulation (../shared/fixtures/mainnet-emulate, origin in
 * its ORIGINS.md): a Getgems purchase, classified from the emulated transactions alone, and shown as the wallet
 * that recorded it asked for (`X-Actions-Version: v1`): the `nft_purchase` is not a v1 type, so the purchase's
 * transfer and the payout to the seller inside it are shown in its place.
 */
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { Transaction as V3Transaction } from '../../src/api/v3/transactions.js';
import { rawUpper } from '../../src/model/address.js';
import { emulatedAction } from '../../src/model/emulate/actions.js';
import { actionVisible, expandActionTypes } from '../../src/model/v3/action-types.js';
import { classifyTrace, type ClassifiedAction, type ContractInfo } from '../../src/model/v3/actions/index.js';
import { fromV3Transaction } from '../../src/model/v3/classifier-input.js';
import { readSharedJson, withoutShared } from '../helpers/shared.js';

const noShared = withoutShared('the classifier against a recorded Getgems purchase emulation');

interface TraceNode {
  tx_hash: string;
  children: TraceNode[] | null;
}

interface EmulateAnswer {
  trace: TraceNode;
  transactions: Record<string, V3Transaction & { account_state_after: { data_hash: string } | null }>;
  actions: { action_id: string; type: string; start_lt: string; end_lt: string; transactions: string[]; success: boolean; details: Record<string, unknown> }[];
  data_cells: Record<string, string>;
  metadata: Record<string, { token_info?: { type: string; nft_index?: string }[] }>;
}

const answer = (): EmulateAnswer => readSharedJson<EmulateAnswer>('fixtures/mainnet-emulate/mytonwallet-org.mytonwallet.getgems-buyNftEmulateTraceResponse.json');

/** Each transaction with its parent, from the answer's trace tree. */
function classifierInput(a: EmulateAnswer) {
  const parent = new Map<string, string>();
  const walk = (n: TraceNode): void => {
    for (const c of n.children ?? []) {
      parent.set(c.tx_hash, n.tx_hash);
      walk(c);
    }
  };
  walk(a.trace);
  return Object.values(a.transactions).map((t) => fromV3Transaction(t, parent.get(t.hash)));
}

/**
 * What the accounts are: the NFT item from the answer's metadata (its one collection is the answer's one), the
 * sale contract from the data it holds after the emulation, as `get_sale_data` reads it (Getgems sale: is_complete,
 * created_at, marketplace, nft, owner, full_price).
 */
function infoFrom(a: EmulateAnswer): ContractInfo {
  const token = (addr: string, type: string) => a.metadata[addr]?.token_info?.find((t) => t.type === type);
  const collection = Object.keys(a.metadata).find((addr) => token(addr, 'nft_collections')) ?? null;
  const dataOf = (addr: string): Cell | null => {
    const t = Object.values(a.transactions).filter((x) => x.account === addr && x.account_state_after).at(-1);
    const boc = t ? a.data_cells[t.account_state_after!.data_hash] : undefined;
    return boc ? Cell.fromBase64(boc) : null;
  };
  return {
    jettonWallet: async () => null,
    nftItem: async (addr) => {
      const index = token(addr, 'nft_items')?.nft_index;
      return index ? { index, collection } : null;
    },
    nftSale: async (addr) => {
      const data = dataOf(addr);
      if (!data || token(addr, 'nft_items')) return null;
      const s = data.beginParse();
      s.skip(1 + 32);
      const marketplace = s.loadAddress();
      const nft = s.loadAddress();
      const owner = s.loadMaybeAddress();
      return { marketplace: rawUpper(marketplace), nft: rawUpper(nft), owner: owner ? rawUpper(owner) : null, price: s.loadCoins().toString() };
    },
  };
}

/** nft_transfer keys the reference added after this answer was recorded: compared only where it prints them. */
const LATER_NFT_KEYS = [
  'marketplace_address', 'payout_amount', 'payout_address', 'payout_comment', 'payout_comment_encrypted', 'payout_comment_encoded',
  'royalty_amount', 'royalty_address',
];

const b64 = (h: string): string => Buffer.from(h, 'hex').toString('base64');

const shown = (a: ClassifiedAction, recorded: Record<string, unknown> | undefined) => ({
  type: a.type,
  action_id: a.actionId,
  start_lt: a.startLt.toString(),
  end_lt: a.endLt.toString(),
  transactions: a.txHashes.map(b64).sort(),
  success: a.success,
  details: Object.fromEntries(Object.entries(a.details).filter(([k]) => !(a.type === 'nft_transfer' && LATER_NFT_KEYS.includes(k) && recorded && !(k in recorded)))),
});

describe.skipIf(noShared)('classifyTrace on a recorded Getgems purchase emulation', () => {
  it('nests the transfer and the payout in an nft_purchase; shown for v1 as the reference showed them', async () => {
    const a = answer();
    const info = infoFrom(a);
    const actions = await classifyTrace(classifierInput(a), info, 'sent');
    const purchase = actions.find((x) => x.type === 'nft_purchase');
    expect(purchase?.ancestorTypes).toEqual([]);
    expect(purchase?.details).toMatchObject({ is_purchase: true, price: '900000000', payout_amount: '910134533', real_old_owner: '0:076451DF07064EA85B78A5AC0F45C3DBC836CD94D1F174AD5E1296C14E31AA52' });
    const inside = actions.filter((x) => x.ancestorTypes.includes('nft_purchase'));
    expect(inside.map((x) => x.type).sort()).toEqual(['nft_transfer', 'ton_transfer']);
    expect(new Set(purchase!.txHashes)).toEqual(new Set(inside.flatMap((x) => x.txHashes)));

    const order = (x: { start_lt: string; type: string }, y: { start_lt: string; type: string }): number =>
      BigInt(x.start_lt) !== BigInt(y.start_lt) ? (BigInt(x.start_lt) < BigInt(y.start_lt) ? -1 : 1) : x.type.localeCompare(y.type);
    const recorded = a.actions
      .map((r) => ({ type: r.type, action_id: r.action_id, start_lt: r.start_lt, end_lt: r.end_lt, transactions: [...r.transactions].sort(), success: r.success, details: r.details }))
      .sort(order);
    const byId = new Map(recorded.map((r) => [r.action_id, r.details]));
    const v1 = expandActionTypes(['v1']);
    // printed as the emulation endpoint prints them
    const printed = await Promise.all(actions.filter((x) => actionVisible(x.type, x.ancestorTypes, v1)).map((x) => emulatedAction(x, info)));
    const local = printed.map((x) => shown(x, byId.get(x.actionId))).sort(order);
    expect(local).toEqual(recorded);
    // with the default types (latest) the purchase stands for the transfer and the payout; the marketplace's fee
    // stays a transfer of its own
    const latest = expandActionTypes(['latest']);
    const top = actions.filter((x) => actionVisible(x.type, x.ancestorTypes, latest));
    expect(top.map((x) => x.type)).toEqual(['nft_purchase', 'ton_transfer']);
    expect(top[1]!.details.destination).toBe('0:9A9CB80ADFBD1662F5108766D73355AC2C03304FDA1D25A479670E34EFCD72B3');
  });
});
