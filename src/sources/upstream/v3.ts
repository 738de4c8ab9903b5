/**
 * V3Api over HTTP: each method becomes the toncenter v3 call with the same query (addresses raw, hashes
 * base64, shards as unsigned hex, opcodes as 0x%08x), and the body comes back as it was sent. Finalised
 * transactions, messages and blocks are cached for good; account states and masterchain info for the TTL.
 */
import type { Address } from '@ton/core';
import { ApiError } from '../../api/errors.js';
import type { V3CoreApi, V3Options } from '../../api/v3.js';
import { rawUpper } from '../../model/address.js';
import type { CachePolicy, UpstreamClient } from './client.js';
import { toV3Stack } from './stack.js';
import { b64, estimateFeeBody, NONE, TTL } from './wire.js';

export type Query = [string, string][];
type Scalar = string | number | bigint | boolean | undefined;


export const addr = (a: Address): string => rawUpper(a);
const shardHex = (s: bigint): string => BigInt.asUintN(64, s).toString(16).toUpperCase().padStart(16, '0');
export const opcodeHex = (op: number): string => `0x${(op >>> 0).toString(16).padStart(8, '0')}`;

/** Query pairs; arrays become repeated keys, undefined values are left out. */
export function q(entries: [string, Scalar | Scalar[]][]): Query {
  const out: Query = [];
  for (const [k, v] of entries) {
    for (const item of Array.isArray(v) ? v : [v]) if (item !== undefined) out.push([k, String(item)]);
  }
  return out;
}

export const optionHeaders = (o: V3Options): Record<string, string> => ({
  ...(o.noAddressBook ? { 'x-no-address-book': 'true' } : {}),
  ...(o.noMetadata ? { 'x-no-metadata': 'true' } : {}),
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body must be an object holding `key` as an array (or be an array when key is undefined). */
function expectBody(route: string, v: unknown, key?: string): void {
  const ok = key === undefined ? isObject(v) : key === '[]' ? Array.isArray(v) : isObject(v) && Array.isArray(v[key]);
  if (!ok) throw new ApiError(502, `v3 upstream answered ${route} with an unexpected body`);
}

const listOf = (v: unknown, key: string): Record<string, unknown>[] =>
  isObject(v) && Array.isArray(v[key]) ? (v[key] as Record<string, unknown>[]) : [];

/** Found and final: pending or merely confirmed transactions can still change or vanish. */
const FINAL_TXS: CachePolicy = {
  kind: 'immutable',
  keep: (v) => {
    const txs = listOf(v, 'transactions');
    return txs.length > 0 && txs.every((t) => t.finality === undefined || t.finality === 'finalized');
  },
};

/** A message is final once the transaction that received it exists (or it has no receiver). */
const FINAL_MESSAGES: CachePolicy = {
  kind: 'immutable',
  keep: (v) => {
    const msgs = listOf(v, 'messages');
    return msgs.length > 0 && msgs.every((m) => m.destination === null || typeof m.in_msg_tx_hash === 'string');
  },
};

const FOUND_BLOCKS: CachePolicy = { kind: 'immutable', keep: (v) => listOf(v, 'blocks').length > 0 };

/** GET and POST to the v3 upstream, checking that the body has the expected top-level shape. */
export function v3Calls(client: UpstreamClient) {
  const get = <T>(route: string, query: Query, policy: CachePolicy, key?: string, headers?: Record<string, string>): Promise<T> =>
    client.call({ api: 'v3', method: 'GET', path: route, query, headers, idempotent: true }, policy, (v) =>
      expectBody(route, v, key),
    ) as Promise<T>;
  const post = <T>(route: string, body: Record<string, unknown>, idempotent: boolean): Promise<T> =>
    client.call({ api: 'v3', method: 'POST', path: route, body, idempotent }, undefined, (v) => expectBody(route, v)) as Promise<T>;
  return { get, post };
}

/** Part 1 of v3; upstreamV3Tokens, upstreamV3Traces and upstreamV3Other answer part 2. */
export function upstreamV3(client: UpstreamClient): V3CoreApi {
  const { get, post } = v3Calls(client);

  return {
    masterchainInfo: () => get('/masterchainInfo', [], TTL),

    blocks: (p) => {
      const query = q([
        ['workchain', p.workchain],
        ['shard', p.shard !== undefined ? shardHex(p.shard) : undefined],
        ['seqno', p.seqno],
        ['root_hash', p.rootHash && b64(p.rootHash)],
        ['file_hash', p.fileHash && b64(p.fileHash)],
        ['mc_seqno', p.mcSeqno],
        ['start_utime', p.startUtime],
        ['end_utime', p.endUtime],
        ['start_lt', p.startLt],
        ['end_lt', p.endLt],
        ['limit', p.limit],
        ['offset', p.offset],
        ['sort', p.sort],
      ]);
      // a block named by hash, or by workchain+shard+seqno, never changes; open filters grow
      const named = p.rootHash || p.fileHash || (p.workchain !== undefined && p.shard !== undefined && p.seqno !== undefined);
      return get('/blocks', query, named ? FOUND_BLOCKS : NONE, 'blocks');
    },
    masterchainBlockShards: (p) =>
      get('/masterchainBlockShards', q([['seqno', p.seqno], ['limit', p.limit], ['offset', p.offset]]), FOUND_BLOCKS, 'blocks'),
    masterchainBlockShardState: (p) => get('/masterchainBlockShardState', q([['seqno', p.seqno]]), FOUND_BLOCKS, 'blocks'),

    transactions: (p) => {
      const query = q([
        ['workchain', p.workchain],
        ['shard', p.shard !== undefined ? shardHex(p.shard) : undefined],
        ['seqno', p.seqno],
        ['mc_seqno', p.mcSeqno],
        ['account', p.account?.map(addr)],
        ['exclude_account', p.excludeAccount?.map(addr)],
        ['hash', p.hash?.map(b64)],
        ['lt', p.lt],
        ['start_utime', p.startUtime],
        ['end_utime', p.endUtime],
        ['start_lt', p.startLt],
        ['end_lt', p.endLt],
        ['limit', p.limit],
        ['offset', p.offset],
        ['sort', p.sort],
      ]);
      return get('/transactions', query, p.hash?.length ? FINAL_TXS : NONE, 'transactions', optionHeaders(p));
    },
    transactionsByMasterchainBlock: (p) =>
      get(
        '/transactionsByMasterchainBlock',
        q([['seqno', p.seqno], ['limit', p.limit], ['offset', p.offset], ['sort', p.sort]]),
        FINAL_TXS,
        'transactions',
        optionHeaders(p),
      ),
    transactionsByMessage: (p) =>
      get(
        '/transactionsByMessage',
        q([
          ['msg_hash', p.msgHash?.map(b64)],
          ['body_hash', p.bodyHash && b64(p.bodyHash)],
          ['opcode', p.opcode !== undefined ? opcodeHex(p.opcode) : undefined],
          ['direction', p.direction],
          ['limit', p.limit],
          ['offset', p.offset],
        ]),
        NONE,
        'transactions',
        optionHeaders(p),
      ),
    adjacentTransactions: (p) =>
      get('/adjacentTransactions', q([['hash', b64(p.hash)], ['direction', p.direction]]), NONE, 'transactions', optionHeaders(p)),
    messages: (p) => {
      const query = q([
        ['msg_hash', p.msgHash?.map(b64)],
        ['body_hash', p.bodyHash && b64(p.bodyHash)],
        ['source', p.source === null ? 'null' : p.source && addr(p.source)],
        ['destination', p.destination === null ? 'null' : p.destination && addr(p.destination)],
        ['opcode', p.opcode !== undefined ? opcodeHex(p.opcode) : undefined],
        ['start_utime', p.startUtime],
        ['end_utime', p.endUtime],
        ['start_lt', p.startLt],
        ['end_lt', p.endLt],
        ['direction', p.direction],
        ['exclude_externals', p.excludeExternals],
        ['only_externals', p.onlyExternals],
        ['limit', p.limit],
        ['offset', p.offset],
        ['sort', p.sort],
      ]);
      const byHash = p.msgHash?.length && !p.direction && p.source === undefined && p.destination === undefined;
      return get('/messages', query, byHash ? FINAL_MESSAGES : NONE, 'messages', optionHeaders(p));
    },

    accountStates: (p) =>
      get(
        '/accountStates',
        q([['address', p.address.map(addr)], ['include_boc', p.includeBoc], ['code_hash', p.codeHash?.map(b64)]]),
        TTL,
        'accounts',
        optionHeaders(p),
      ),
    walletStates: (p) => get('/walletStates', q([['address', p.address.map(addr)]]), TTL, 'wallets', optionHeaders(p)),
    // the caller's own strings: the answer is keyed by them
    addressBook: (p) => get('/addressBook', q([['address', p.address]]), TTL),
    topAccountsByBalance: (p) => get('/topAccountsByBalance', q([['limit', p.limit], ['offset', p.offset]]), NONE, '[]'),

    addressInformation: (p) => get('/addressInformation', q([['address', addr(p.address)], ['use_v2', p.useV2]]), TTL),
    walletInformation: (p) => get('/walletInformation', q([['address', addr(p.address)], ['use_v2', p.useV2]]), TTL),
    // never repeated blindly: a lost answer may hide an accepted message
    message: (p) => post('/message', { boc: b64(p.boc) }, false),
    runGetMethod: (p) =>
      post('/runGetMethod', { address: addr(p.address), method: String(p.method), stack: toV3Stack(p.stack) }, true),
    estimateFee: (p) =>
      post(
        '/estimateFee',
        estimateFeeBody(p, addr(p.address)),
        true,
      ),
  };
}
