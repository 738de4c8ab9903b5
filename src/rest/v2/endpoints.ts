/**
 * Every v2 endpoint once: its name (the REST path and the JSON-RPC method), the HTTP methods it takes,
 * how its parameters are read, and the V2Api call. REST routes and JSON-RPC both dispatch through this table.
 * Parameters, defaults and bounds: ../shared/reference/v2.md §4 (C++ variant), service-spec.md.
 */
import { ApiError } from '../../api/errors.js';
import type { BlockTransactionsParams, TransactionsParams, V2Api } from '../../api/v2.js';
import { parseLegacyStack, parseStdStack } from '../../model/stack.js';
import {
  address,
  boc,
  hashList,
  int32,
  int64,
  json,
  missing,
  optAccountId,
  optBool,
  optBytes,
  optHash,
  optInt32,
  optInt64,
  optSeqno,
  parseError,
  string,
  validationError,
  type Source,
} from './params.js';

export interface Endpoint {
  name: string;
  /** C++ serves reads on GET and POST; sends and get-methods on POST only */
  methods: ('GET' | 'POST')[];
  /** other names for the same endpoint (`shards`, `getOutMsgQueueSizes`) */
  aliases?: string[];
  call(v2: V2Api, src: Source): Promise<unknown>;
}

const READ = ['GET', 'POST'] as ('GET' | 'POST')[];
const WRITE = ['POST'] as ('GET' | 'POST')[];

const accountParams = (src: Source) => ({ address: address(src, 'address'), seqno: optSeqno(src) });

function blockTransactionsParams(src: Source): BlockTransactionsParams {
  // the spec's exact texts for these three (service-spec.md, Errors)
  const workchain = int32(src, 'workchain', { failMessage: 'failed to parse workchain' });
  const shard = int64(src, 'shard', { failMessage: 'failed to parse shard' });
  const seqno = int32(src, 'seqno', { failMessage: 'failed to parse seqno' });
  const rootHash = optHash(src, 'root_hash');
  const fileHash = optHash(src, 'file_hash');
  const afterLt = optInt64(src, 'after_lt', { failMessage: 'failed to parse after_lt' });
  const afterHash = optAccountId(src, 'after_hash');
  const count = optInt64(src, 'count', { failMessage: 'failed to parse count' }) ?? 40n;
  if ((afterLt === undefined) !== (afterHash === undefined)) {
    throw new ApiError(422, 'after_lt and after_hash should be used together');
  }
  if (afterLt !== undefined && afterLt < 0n) throw new ApiError(422, 'after_lt should be non-negative');
  if (count < 1n) throw new ApiError(422, 'count should be positive');
  if (count > 10000n) throw new ApiError(422, 'count should be less or equal 10000');
  return {
    workchain,
    shard,
    seqno,
    rootHash,
    fileHash,
    count: Number(count),
    after: afterLt !== undefined && afterHash ? { lt: afterLt, accountHash: afterHash } : undefined,
  };
}

function transactionsParams(src: Source): TransactionsParams {
  const addr = address(src, 'address');
  const limit = optInt32(src, 'limit', { failMessage: 'failed to parse limit' }) ?? 10;
  let lt = optInt64(src, 'lt', { failMessage: 'failed to parse lt' });
  if (lt === 0n) lt = undefined; // lt=0 means "from the last transaction" (C++)
  const hash = optHash(src, 'hash');
  const toLt = optInt64(src, 'to_lt', { failMessage: 'failed to parse to_lt' }) ?? 0n;
  const archival = optBool(src, 'archival') ?? false;
  if ((lt === undefined) !== (hash === undefined)) throw validationError('lt and hash should be used together');
  if (lt !== undefined && lt < 0n) throw validationError('lt should be non-negative');
  if (toLt < 0n) throw validationError('to_lt should be non-negative');
  if (limit < 1) throw validationError('limit should be positive');
  if (limit > 1000) throw validationError('limit should be less or equal 1000');
  return { address: addr, limit, toLt, archival, from: lt !== undefined && hash ? { lt, hash } : undefined };
}

function locateParams(src: Source) {
  const source = address(src, 'source');
  const destination = address(src, 'destination');
  const createdLt = int64(src, 'created_lt', { failMessage: 'failed to parse created_lt' });
  if (createdLt < 0n) throw validationError('created_lt should be non-negative');
  return { source, destination, createdLt };
}

function shardsSeqno(src: Source): number {
  const seqno = int32(src, 'seqno', { failMessage: 'failed to parse seqno' });
  if (seqno <= 0) throw validationError('seqno should be positive');
  return seqno;
}

function methodParam(src: Source): string | number {
  if (!src.has('method')) throw missing(src, 'method');
  const m = src.get('method');
  if (typeof m === 'number' && Number.isInteger(m)) return m;
  if (typeof m === 'string' && m.length > 0) return m;
  throw parseError(src, `'method' must be a method name or a numeric id`);
}

function stackParam(src: Source): unknown[] {
  const s = json(src, 'stack');
  if (s === undefined) return [];
  if (!Array.isArray(s)) throw parseError(src, `'stack' must be an array`);
  return s;
}

function configId(src: Source): number {
  const viaConfigId = optInt32(src, 'config_id', { failMessage: 'failed to parse config_id' });
  const viaParam = optInt32(src, 'param', { failMessage: 'failed to parse param' });
  if (src.kind === 'post' && viaConfigId !== undefined && viaParam !== undefined) {
    throw validationError('only one of config_id or param should be specified');
  }
  // GET: config_id overrides param (C++)
  const id = viaConfigId ?? viaParam;
  if (id === undefined) throw missing(src, 'config_id');
  if (id < 0) throw validationError('param should be non-negative');
  return id;
}

function sendBoc(src: Source): { boc: Buffer } {
  return { boc: boc(src, 'boc') };
}

export const ENDPOINTS: Endpoint[] = [
  // ---- accounts ----
  { name: 'getAddressInformation', methods: READ, call: (v2, s) => v2.getAddressInformation(accountParams(s)) },
  { name: 'getExtendedAddressInformation', methods: READ, call: (v2, s) => v2.getExtendedAddressInformation(accountParams(s)) },
  { name: 'getWalletInformation', methods: READ, call: (v2, s) => v2.getWalletInformation(accountParams(s)) },
  { name: 'getAddressBalance', methods: READ, call: (v2, s) => v2.getAddressBalance(accountParams(s)) },
  { name: 'getAddressState', methods: READ, call: (v2, s) => v2.getAddressState(accountParams(s)) },
  { name: 'getTokenData', methods: READ, call: (v2, s) => v2.getTokenData(accountParams(s)) },

  // ---- blocks ----
  { name: 'getMasterchainInfo', methods: READ, call: (v2) => v2.getMasterchainInfo() },
  {
    name: 'getMasterchainBlockSignatures',
    methods: READ,
    call: (v2, s) => v2.getMasterchainBlockSignatures({ seqno: shardsSeqno(s) }),
  },
  {
    name: 'getShardBlockProof',
    methods: READ,
    call: (v2, s) => {
      const workchain = int32(s, 'workchain', { failMessage: 'failed to parse workchain' });
      const shard = int64(s, 'shard', { failMessage: 'failed to parse shard' });
      const seqno = int32(s, 'seqno', { failMessage: 'failed to parse seqno' });
      const fromSeqno = optInt32(s, 'from_seqno', { failMessage: 'failed to parse from_seqno' });
      if (seqno <= 0) throw validationError('seqno should be positive');
      if (fromSeqno !== undefined && fromSeqno < 0) throw validationError('from_seqno should be non-negative');
      return v2.getShardBlockProof({ workchain, shard, seqno, fromSeqno });
    },
  },
  { name: 'getConsensusBlock', methods: READ, call: (v2) => v2.getConsensusBlock() },
  {
    name: 'lookupBlock',
    methods: READ,
    call: (v2, s) => {
      const workchain = int32(s, 'workchain', { failMessage: 'failed to parse workchain' });
      const shard = int64(s, 'shard', { failMessage: 'failed to parse shard' });
      const seqno = optInt32(s, 'seqno', { failMessage: 'failed to parse seqno' });
      const lt = optInt64(s, 'lt', { failMessage: 'failed to parse lt' });
      const unixtime = optInt32(s, 'unixtime', { failMessage: 'failed to parse unixtime' });
      if ([seqno, lt, unixtime].filter((x) => x !== undefined).length !== 1) {
        throw validationError('exactly one of seqno, lt, unixtime should be specified');
      }
      if (seqno !== undefined && seqno <= 0) throw validationError('seqno should be positive');
      if (lt !== undefined && lt < 0n) throw validationError('lt should be non-negative');
      if (unixtime !== undefined && unixtime < 0) throw validationError('unixtime should be non-negative');
      return v2.lookupBlock({ workchain, shard, seqno, lt, unixtime });
    },
  },
  {
    name: 'getShards',
    methods: READ,
    aliases: ['shards'],
    call: (v2, s) => v2.getShards({ seqno: int32(s, 'seqno', { failMessage: 'failed to parse seqno' }) }),
  },
  {
    name: 'getBlockHeader',
    methods: READ,
    call: (v2, s) =>
      v2.getBlockHeader({
        workchain: int32(s, 'workchain', { failMessage: 'failed to parse workchain' }),
        shard: int64(s, 'shard', { failMessage: 'failed to parse shard' }),
        seqno: int32(s, 'seqno', { failMessage: 'failed to parse seqno' }),
        rootHash: optHash(s, 'root_hash'),
        fileHash: optHash(s, 'file_hash'),
      }),
  },
  { name: 'getOutMsgQueueSize', methods: READ, aliases: ['getOutMsgQueueSizes'], call: (v2) => v2.getOutMsgQueueSize() },

  // ---- transactions ----
  { name: 'getBlockTransactions', methods: READ, call: (v2, s) => v2.getBlockTransactions(blockTransactionsParams(s)) },
  { name: 'getBlockTransactionsExt', methods: READ, call: (v2, s) => v2.getBlockTransactionsExt(blockTransactionsParams(s)) },
  { name: 'getTransactions', methods: READ, call: (v2, s) => v2.getTransactions(transactionsParams(s)) },
  { name: 'getTransactionsStd', methods: READ, call: (v2, s) => v2.getTransactionsStd(transactionsParams(s)) },
  { name: 'tryLocateTx', methods: READ, call: (v2, s) => v2.tryLocateTx(locateParams(s)) },
  { name: 'tryLocateResultTx', methods: READ, call: (v2, s) => v2.tryLocateResultTx(locateParams(s)) },
  { name: 'tryLocateSourceTx', methods: READ, call: (v2, s) => v2.tryLocateSourceTx(locateParams(s)) },

  // ---- send ----
  { name: 'sendBoc', methods: WRITE, call: (v2, s) => v2.sendBoc(sendBoc(s)) },
  { name: 'sendBocReturnHash', methods: WRITE, call: (v2, s) => v2.sendBocReturnHash(sendBoc(s)) },
  {
    name: 'sendBocReturnHashNoError',
    methods: WRITE,
    call: async (v2, s) => {
      const p = sendBoc(s);
      try {
        return await v2.sendBocReturnHash(p);
      } catch (e) {
        // this variant reports every failure of the send itself as 400 (C++ SendBocHandler, ignore_errors)
        if (e instanceof ApiError) throw new ApiError(400, e.message);
        throw e;
      }
    },
  },
  {
    name: 'estimateFee',
    methods: WRITE,
    call: (v2, s) => {
      const addr = address(s, 'address');
      if (!s.has('body')) throw missing(s, 'body');
      return v2.estimateFee({
        address: addr,
        body: optBytes(s, 'body') ?? Buffer.alloc(0),
        initCode: optBytes(s, 'init_code'),
        initData: optBytes(s, 'init_data'),
        ignoreChksig: optBool(s, 'ignore_chksig') ?? true,
      });
    },
  },

  // ---- get-methods ----
  {
    name: 'runGetMethod',
    methods: WRITE,
    call: (v2, s) =>
      v2.runGetMethod({
        address: address(s, 'address'),
        method: methodParam(s),
        stack: parseLegacyStack(stackParam(s)),
        seqno: optSeqno(s),
      }),
  },
  {
    name: 'runGetMethodStd',
    methods: WRITE,
    call: (v2, s) =>
      v2.runGetMethodStd({
        address: address(s, 'address'),
        method: methodParam(s),
        stack: parseStdStack(stackParam(s)),
        seqno: optSeqno(s),
      }),
  },

  // ---- utils ----
  {
    name: 'detectAddress',
    methods: READ,
    call: (v2, s) => {
      address(s, 'address');
      return v2.detectAddress({ address: string(s, 'address') });
    },
  },
  {
    name: 'detectHash',
    methods: READ,
    call: (v2, s) => {
      if (!optHash(s, 'hash')) throw missing(s, 'hash');
      return v2.detectHash({ hash: string(s, 'hash') });
    },
  },
  {
    name: 'packAddress',
    methods: READ,
    call: (v2, s) => {
      address(s, 'address');
      return v2.packAddress({ address: string(s, 'address') });
    },
  },
  {
    name: 'unpackAddress',
    methods: READ,
    call: (v2, s) => {
      address(s, 'address');
      return v2.unpackAddress({ address: string(s, 'address') });
    },
  },

  // ---- config ----
  { name: 'getConfigParam', methods: READ, call: (v2, s) => v2.getConfigParam({ configId: configId(s), seqno: optSeqno(s) }) },
  { name: 'getConfigAll', methods: READ, call: (v2, s) => v2.getConfigAll({ seqno: optSeqno(s) }) },
  {
    name: 'getLibraries',
    methods: READ,
    call: (v2, s) => {
      const libraries = hashList(s, 'libraries');
      if (libraries.length === 0) throw missing(s, 'libraries');
      return v2.getLibraries({ libraries });
    },
  },
];

/** Endpoint by REST path segment or JSON-RPC method name, aliases included. */
export const ENDPOINT_BY_NAME: ReadonlyMap<string, Endpoint> = new Map(
  ENDPOINTS.flatMap((e) => [e.name, ...(e.aliases ?? [])].map((n) => [n, e] as const)),
);
