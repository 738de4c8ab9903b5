/**
 * What a search string names: a block (workchain:shard:seqno), an address (raw or user-friendly), or a 32-byte
 * hash (hex or base64) that the gateway is asked to find as a transaction, a message or a trace.
 */
import { ExplorerError, query } from './gql.js';
import { CHECK_ADDRESS, FIND_HASH } from './documents.js';
import { route } from './format.js';

const BLOCK = /^(-?\d+):([0-9a-fA-F]{1,16}|-?\d+):(\d+)$/;
const RAW_ADDRESS = /^-?\d+:[0-9a-fA-F]{64}$/;
// user-friendly addresses are 36 bytes: 48 base64 characters
const FRIENDLY_ADDRESS = /^[A-Za-z0-9+/_-]{48}$/;
const HEX_HASH = /^[0-9a-fA-F]{64}$/;
const BASE64_HASH = /^[A-Za-z0-9+/_-]{43}=?$/;

/** The shard as the schema spells it: upper-case hex of the uint64; a signed decimal is converted. */
function shardHex(s: string): string {
  if (/^-?\d+$/.test(s) && (s.startsWith('-') || s.length > 16)) return BigInt.asUintN(64, BigInt(s)).toString(16).toUpperCase().padStart(16, '0');
  return s.toUpperCase().padStart(16, '0');
}

interface Found {
  transaction: { hash: string } | null;
  message: { hash: string; destinationTransaction: { hash: string } | null; sourceTransaction: { hash: string } | null } | null;
  trace: { id: string; traceId: string | null } | null;
}



/** The page to open for a search, or an ExplorerError saying why there is none. */
export async function resolveSearch(input: string): Promise<string> {
  const q = input.trim();
  if (!q) throw new ExplorerError('Type an address, a transaction or message hash, a block (workchain:shard:seqno) or a trace id.', 'EMPTY');
  const block = BLOCK.exec(q);
  if (block) return route.block(Number(block[1]), shardHex(block[2]!), Number(block[3]));
  if (RAW_ADDRESS.test(q) || FRIENDLY_ADDRESS.test(q)) {
    // the gateway parses it (checksum included), so a mistyped address is refused with its reason
    const r = await query<{ account: { address: string } }>(CHECK_ADDRESS, { a: q });
    return route.account(r.data!.account.address);
  }
  if (HEX_HASH.test(q) || BASE64_HASH.test(q)) {
    const r = await query<Found>(FIND_HASH, { h: q });
    const f = r.data!;
    if (f.transaction) return route.tx(f.transaction.hash);
    if (f.trace?.traceId) return route.tx(f.trace.traceId);
    const viaMessage = f.message?.destinationTransaction ?? f.message?.sourceTransaction;
    if (viaMessage) return route.tx(viaMessage.hash);
    if (r.errors.length) throw r.errors[0]!;
    throw new ExplorerError(`No transaction, message or trace has the hash ${q}.`, 'NOT_FOUND');
  }
  throw new ExplorerError(
    `"${q}" is not an address, a 32-byte hash (64 hex or 44 base64 characters) or a block (workchain:shard:seqno).`,
    'BAD_INPUT',
  );
}
