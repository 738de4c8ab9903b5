/**
 * tgBTC: mints (the teleport's mint chain ending in a jetton mint, with its log), burns (a jetton burn the
 * bridge logs with the pegout address) and new keys (a completed key generation and the new key's log).
 * The reference's rules: `indexer/events/blocks/tgbtc.py` of toncenter/ton-indexer.
 */
import { JETTON_OP } from '../../tlb/jetton.js';
import { loadBurnLog, loadDkgCompletedLog, loadMintLog, loadNewKeyLog, TGBTC_OP } from '../../tlb/tgbtc.js';
import { defineMatcher, detailsOf, found, isCall, type Block } from './block.js';

const child = (b: Block, op: number): Block | undefined => b.next.find((n) => isCall(n, op));

/** A pegout contract deployed, with its notification and the coins it returns. */
function pegoutTree(b: Block): Block[] {
  const deploy = child(b, TGBTC_OP.pegoutDeploy);
  if (!deploy) return [];
  return [deploy, ...deploy.next.filter((n) => isCall(n, TGBTC_OP.pegoutNotify) || n.type === 'ton_transfer')];
}

/** A log that does not parse (an address form the bridge never writes) is no match, as in the reference. */
function tryLoad<T>(load: () => T): T | null {
  try {
    return load();
  } catch {
    return null;
  }
}

/** How far up the mint chain the request that started it may be. */
const MINT_CHAIN_DEPTH = 20;

export const tgbtcMint = defineMatcher({
  name: 'tgbtc_mint',
  addressKeys: { tgbtc_mint: ['source', 'destination', 'asset', 'destination_wallet'] },
  async match(b) {
    if (!isCall(b, TGBTC_OP.mintTail)) return null;
    const log = child(b, TGBTC_OP.mintLog);
    const mintBlock = b.next.find((n) => n.action === 'jetton_mint');
    const mint = mintBlock && detailsOf(mintBlock, 'jetton_mint');
    if (!log || !mintBlock || !mint) return null;
    const include = new Set<Block>([b, log, mintBlock]);
    let head: Block | null = null;
    let at = b;
    for (let i = 0; i < MINT_CHAIN_DEPTH && at.prev; i++) {
      const prev: Block = at.prev;
      include.add(prev);
      for (const sibling of prev.next) include.add(sibling);
      at = prev;
      if (isCall(prev, TGBTC_OP.mintRequest)) {
        head = prev;
        break;
      }
    }
    if (!head) return null;
    const event = loadMintLog(log.nodes[0]!.body);
    return found({
      type: 'tgbtc_mint',
      include: [b, ...[...include].filter((x) => x !== b)],
      failed: false,
      details: {
        source: head.nodes[0]!.source,
        destination: event.recipient,
        amount: event.amount.toString(),
        asset: mint.asset ?? null,
        bitcoin_tx_id: event.bitcoinTxId,
        destination_wallet: mint.receiver_jetton_wallet ?? null,
      },
    });
  },
});

export const tgbtcBurn = defineMatcher({
  name: 'tgbtc_burn',
  addressKeys: { tgbtc_burn: ['source', 'source_wallet', 'destination', 'asset'] },
  async match(b) {
    const burn = detailsOf(b, 'jetton_burn');
    if (!burn) return null;
    // the master passes the burn notification on to the bridge (0x587643a2 in the bridge's older schema)
    const notified = [b, ...b.next.filter((n) => isCall(n, JETTON_OP.burnNotification) || isCall(n, TGBTC_OP.burnNotificationAlt))];
    const holder = notified.find((n) => child(n, TGBTC_OP.burnLog));
    if (!holder) return null;
    const log = child(holder, TGBTC_OP.burnLog)!;
    const event = tryLoad(() => loadBurnLog(log.nodes[0]!.body));
    if (!event) return null;
    // what was burnt, unless the log says less (or the burn names no amount)
    const burnt = BigInt(burn.amount ?? 0);
    const amount = burnt === 0n || event.amount < burnt ? event.amount : burnt;
    return found({
      type: 'tgbtc_burn',
      include: [b, ...(holder === b ? [] : [holder]), log, ...pegoutTree(holder)],
      failed: b.failed,
      details: { source: burn.owner ?? null, source_wallet: burn.owner_jetton_wallet ?? null, destination: event.pegout, amount: amount.toString(), asset: burn.asset ?? null },
    });
  },
});

export const tgbtcNewKey = defineMatcher({
  name: 'tgbtc_new_key',
  addressKeys: { tgbtc_new_key: ['source', 'coordinator', 'pegout'] },
  async match(b) {
    if (!isCall(b, TGBTC_OP.newKey)) return null;
    const dkg = b.prev && child(b.prev, TGBTC_OP.dkgCompletedLog);
    const log = child(b, TGBTC_OP.newKeyLog);
    if (!dkg || !log) return null;
    const event = loadNewKeyLog(log.nodes[0]!.body);
    return found({
      type: 'tgbtc_new_key',
      include: [b, dkg, log, ...pegoutTree(b)],
      failed: b.failed,
      details: {
        source: dkg.nodes[0]!.source,
        pubkey: event.pubkey,
        coordinator: log.nodes[0]!.source,
        pegout: event.pegout,
        amount: event.amount.toString(),
        asset: null,
      },
    });
  },
});

/** A burn logged with no jetton burn before it (the reference's log-only fallback): what the log alone says. */
export const tgbtcBurnLog = defineMatcher({
  name: 'tgbtc_burn_log',
  addressKeys: { tgbtc_burn_fallback: ['source', 'destination'] },
  async match(b) {
    if (!isCall(b, TGBTC_OP.burnLog)) return null;
    const event = loadBurnLog(b.nodes[0]!.body);
    return found({
      type: 'tgbtc_burn_fallback',
      blockType: 'tgbtc_burn',
      include: [b],
      failed: false,
      details: { source: event.sender, source_wallet: null, destination: event.pegout, amount: event.amount.toString(), asset: null },
    });
  },
});

/** A completed key generation logged with no new key after it (the reference's log-only fallback). */
export const tgbtcDkgLog = defineMatcher({
  name: 'tgbtc_dkg_log',
  addressKeys: { tgbtc_dkg_log_fallback: ['coordinator'] },
  async match(b) {
    if (!isCall(b, TGBTC_OP.dkgCompletedLog)) return null;
    const log = loadDkgCompletedLog(b.nodes[0]!.body);
    return found({
      type: 'tgbtc_dkg_log_fallback',
      blockType: 'tgbtc_dkg_log',
      include: [b],
      failed: false,
      details: { coordinator: b.nodes[0]!.source, pubkey: log.pubkey, timestamp: log.timestamp.toString() },
    });
  },
});

export const TGBTC_MATCHERS = [tgbtcMint, tgbtcBurn, tgbtcNewKey, tgbtcBurnLog, tgbtcDkgLog];
