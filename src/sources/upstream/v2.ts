/**
 * V2Api over HTTP: each method becomes the toncenter v2 call with the same parameters (addresses raw, hashes
 * base64, int64 values as decimal strings), and the envelope's `result` comes back as it was sent, unknown
 * fields included. Finalised data (blocks, transactions from a fixed point, lookups) is cached for good,
 * account states and masterchain info for the account TTL.
 */
import type { Address } from '@ton/core';
import { ApiError } from '../../api/errors.js';
import type {
  AddressParams,
  BlockRefParams,
  BlockTransactionsParams,
  LocateTxParams,
  TransactionsParams,
  V2Api,
} from '../../api/v2.js';
import { rawLower } from '../../model/address.js';
import type { CachePolicy, UpstreamClient } from './client.js';
import { toLegacyStack, toStdStack } from './stack.js';
import { b64, estimateFeeBody, NONE, TTL } from './wire.js';

type Query = [string, string][];

const IMMUTABLE: CachePolicy = { kind: 'immutable' };
/** An empty list may only mean "not there yet"; keep lists that found something. */
const NON_EMPTY: CachePolicy = { kind: 'immutable', keep: (v) => !Array.isArray(v) || v.length > 0 };

/** Only a full answer is final: a missing library may still be published. */
const LIBRARIES: CachePolicy = {
  kind: 'immutable',
  keep: (v) => Array.isArray((v as { result?: unknown }).result) && (v as { result: unknown[] }).result.length > 0,
};

const addr = (a: Address): string => rawLower(a);

/** Query pairs from optional values, in the given order; undefined ones left out. */
function q(entries: [string, string | number | bigint | boolean | undefined][]): Query {
  const out: Query = [];
  for (const [k, v] of entries) if (v !== undefined) out.push([k, String(v)]);
  return out;
}

type Check = 'object' | 'string' | 'array';

/** The result must have the kind (and `@type`, when given) the method promises, or the answer is not usable. */
function expectResult(method: string, value: unknown, check: Check, type?: string): void {
  const ok =
    check === 'string'
      ? typeof value === 'string'
      : check === 'array'
        ? Array.isArray(value)
        : typeof value === 'object' && value !== null && !Array.isArray(value) &&
          (type === undefined || (value as Record<string, unknown>)['@type'] === type);
  if (!ok) throw new ApiError(502, `v2 upstream answered ${method} with an unexpected result${type ? ` (expected ${type})` : ''}`);
}

const blockRef = (p: BlockRefParams): Query =>
  q([
    ['workchain', p.workchain],
    ['shard', p.shard],
    ['seqno', p.seqno],
    ['root_hash', p.rootHash && b64(p.rootHash)],
    ['file_hash', p.fileHash && b64(p.fileHash)],
  ]);

const blockTxQuery = (p: BlockTransactionsParams): Query => [
  ...blockRef(p),
  ...q([
    ['after_lt', p.after?.lt],
    ['after_hash', p.after && b64(p.after.accountHash)],
    ['count', p.count],
  ]),
];

const txQuery = (p: TransactionsParams): Query =>
  q([
    ['address', addr(p.address)],
    ['limit', p.limit],
    ['lt', p.from?.lt],
    ['hash', p.from && b64(p.from.hash)],
    ['to_lt', p.toLt],
    ['archival', p.archival],
  ]);

const locateQuery = (p: LocateTxParams): Query =>
  q([
    ['source', addr(p.source)],
    ['destination', addr(p.destination)],
    ['created_lt', p.createdLt],
  ]);

const accountQuery = (p: AddressParams): Query => q([['address', addr(p.address)], ['seqno', p.seqno]]);

export function upstreamV2(client: UpstreamClient): V2Api {
  const get = <T>(name: string, query: Query, policy: CachePolicy, check: Check, type?: string): Promise<T> =>
    client.call({ api: 'v2', method: 'GET', path: `/${name}`, query, idempotent: true }, policy, (v) =>
      expectResult(name, v, check, type),
    ) as Promise<T>;
  const post = <T>(name: string, body: Record<string, unknown>, idempotent: boolean, policy: CachePolicy, type: string): Promise<T> =>
    client.call({ api: 'v2', method: 'POST', path: `/${name}`, body, idempotent }, policy, (v) =>
      expectResult(name, v, 'object', type),
    ) as Promise<T>;
  // an account as of a given masterchain block never changes; the latest state does
  const accountPolicy = (p: { seqno?: number }): CachePolicy => (p.seqno !== undefined ? IMMUTABLE : TTL);

  return {
    getAddressInformation: (p) => get('getAddressInformation', accountQuery(p), accountPolicy(p), 'object', 'raw.fullAccountState'),
    getExtendedAddressInformation: (p) =>
      get('getExtendedAddressInformation', accountQuery(p), accountPolicy(p), 'object', 'fullAccountState'),
    getWalletInformation: (p) =>
      get('getWalletInformation', accountQuery(p), accountPolicy(p), 'object', 'ext.accounts.walletInformation'),
    getAddressBalance: (p) => get('getAddressBalance', accountQuery(p), accountPolicy(p), 'string'),
    getAddressState: (p) => get('getAddressState', accountQuery(p), accountPolicy(p), 'string'),
    getTokenData: (p) => get('getTokenData', accountQuery(p), accountPolicy(p), 'object'),

    getMasterchainInfo: () => get('getMasterchainInfo', [], TTL, 'object', 'blocks.masterchainInfo'),
    getMasterchainBlockSignatures: (p) =>
      get('getMasterchainBlockSignatures', q([['seqno', p.seqno]]), IMMUTABLE, 'object', 'blocks.blockSignatures'),
    getShardBlockProof: (p) =>
      get(
        'getShardBlockProof',
        q([
          ['workchain', p.workchain],
          ['shard', p.shard],
          ['seqno', p.seqno],
          ['from_seqno', p.fromSeqno],
        ]),
        IMMUTABLE,
        'object',
        'blocks.shardBlockProof',
      ),
    getConsensusBlock: () => get('getConsensusBlock', [], TTL, 'object', 'ext.blocks.consensusBlock'),
    lookupBlock: (p) =>
      get(
        'lookupBlock',
        q([
          ['workchain', p.workchain],
          ['shard', p.shard],
          ['seqno', p.seqno],
          ['lt', p.lt],
          ['unixtime', p.unixtime],
        ]),
        // by seqno the answer is fixed once the block exists; by lt or time a later block may match better
        p.seqno !== undefined ? IMMUTABLE : NONE,
        'object',
        'ton.blockIdExt',
      ),
    getShards: (p) => get('getShards', q([['seqno', p.seqno]]), IMMUTABLE, 'object', 'blocks.shards'),
    getBlockHeader: (p) => get('getBlockHeader', blockRef(p), IMMUTABLE, 'object', 'blocks.header'),
    getOutMsgQueueSize: () => get('getOutMsgQueueSize', [], NONE, 'object', 'blocks.outMsgQueueSizes'),

    getBlockTransactions: (p) => get('getBlockTransactions', blockTxQuery(p), IMMUTABLE, 'object', 'blocks.transactions'),
    getBlockTransactionsExt: (p) =>
      get('getBlockTransactionsExt', blockTxQuery(p), IMMUTABLE, 'object', 'blocks.transactionsExt'),
    // from a given transaction backwards the history is final; from "the latest" it grows
    getTransactions: (p) => get('getTransactions', txQuery(p), p.from ? NON_EMPTY : NONE, 'array'),
    getTransactionsStd: (p) => get('getTransactionsStd', txQuery(p), p.from ? IMMUTABLE : NONE, 'object', 'raw.transactions'),
    tryLocateTx: (p) => get('tryLocateTx', locateQuery(p), IMMUTABLE, 'object', 'ext.transaction'),
    tryLocateResultTx: (p) => get('tryLocateResultTx', locateQuery(p), IMMUTABLE, 'object', 'ext.transaction'),
    tryLocateSourceTx: (p) => get('tryLocateSourceTx', locateQuery(p), IMMUTABLE, 'object', 'ext.transaction'),

    // sends are never repeated blindly: a lost answer may hide an accepted message
    sendBoc: (p) => post('sendBoc', { boc: b64(p.boc) }, false, NONE, 'ok'),
    sendBocReturnHash: (p) => post('sendBocReturnHash', { boc: b64(p.boc) }, false, NONE, 'raw.extMessageInfo'),
    estimateFee: (p) =>
      post(
        'estimateFee',
        estimateFeeBody(p, addr(p.address)),
        true,
        NONE,
        'query.fees',
      ),

    runGetMethod: (p) =>
      post(
        'runGetMethod',
        { address: addr(p.address), method: p.method, stack: toLegacyStack(p.stack), ...(p.seqno !== undefined ? { seqno: p.seqno } : {}) },
        true,
        p.seqno !== undefined ? IMMUTABLE : NONE,
        'smc.runResult',
      ),
    runGetMethodStd: (p) =>
      post(
        'runGetMethodStd',
        { address: addr(p.address), method: p.method, stack: toStdStack(p.stack), ...(p.seqno !== undefined ? { seqno: p.seqno } : {}) },
        true,
        p.seqno !== undefined ? IMMUTABLE : NONE,
        'smc.runResult',
      ),

    detectAddress: (p) => get('detectAddress', q([['address', p.address]]), IMMUTABLE, 'object', 'ext.utils.detectedAddress'),
    detectHash: (p) => get('detectHash', q([['hash', p.hash]]), IMMUTABLE, 'object', 'ext.utils.detectedHash'),
    packAddress: (p) => get('packAddress', q([['address', p.address]]), IMMUTABLE, 'string'),
    unpackAddress: (p) => get('unpackAddress', q([['address', p.address]]), IMMUTABLE, 'string'),

    getConfigParam: (p) =>
      get(
        'getConfigParam',
        q([['config_id', p.configId], ['seqno', p.seqno]]),
        p.seqno !== undefined ? IMMUTABLE : TTL,
        'object',
        'configInfo',
      ),
    getConfigAll: (p) => get('getConfigAll', q([['seqno', p.seqno]]), p.seqno !== undefined ? IMMUTABLE : TTL, 'object', 'configInfo'),
    // a library is addressed by its own hash
    getLibraries: (p) =>
      get('getLibraries', p.libraries.map((l) => ['libraries', b64(l)] as [string, string]), LIBRARIES, 'object', 'smc.libraryResult'),
  };
}
