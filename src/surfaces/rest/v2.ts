/**
 * The toncenter API v2 surface (v2.md §1–§4, C++ variant 2.1.x; service-spec.md wins where it speaks):
 * REST under /api/v2 and JSON-RPC at POST /api/v2/jsonRPC, both driven by one endpoint table (V2_ENDPOINTS)
 * so they parse and validate alike, and an openapi generator can read the same table.
 *
 * Envelope: `{"ok":true,"result":…}` / `{"ok":false,"error":…,"code":N}` with HTTP status N; JSON-RPC answers add
 * `"jsonrpc":"2.0"` and echo the request's `id`. Bad input is always a 4xx, never a call into the data source.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, isApiError } from '../../api/errors.js';
import type { StackArg, V2Api } from '../../api/v2.js';
import { parseLegacyStack, parseStdStack } from '../../model/stack.js';
import { preSerialized } from '../../sources/upstream/shared-json.js';
import {
  ParamError,
  accountId,
  address,
  addressText,
  bool,
  boc,
  describe,
  hash,
  hashText,
  int32,
  int64,
  invalid,
  list,
  methodRef,
  parseFail,
  queryValues,
  readParams,
  required,
  stackJson,
  withDefault,
  type ParamMap,
  type Parsed,
  type Source,
} from './v2-params.js';

export const V2_PREFIX = '/api/v2';

export type V2HttpMethod = 'GET' | 'POST';

export interface V2Endpoint<M extends ParamMap = ParamMap> {
  /** path under /api/v2 and JSON-RPC method name */
  name: string;
  /** further paths that are also JSON-RPC method names (`shards`, `getOutMsgQueueSizes`) */
  aliases?: string[];
  /** read methods take GET and POST in the C++ variant; send/run/estimate are POST only */
  methods: readonly V2HttpMethod[];
  category: 'Accounts' | 'Blocks' | 'Transactions' | 'Send' | 'Run method' | 'Utils' | 'Configuration';
  summary: string;
  params: M;
  /** errors in the spec's own words, without the C++ `failed to parse … request:` / `failed to validate request:` wrappers */
  bareErrors?: boolean;
  /** validates the parsed params (throwing ParamError) and only then calls the data source */
  call(api: V2Api, p: Parsed<M>, from: Source): Promise<unknown>;
}

const endpoint = <M extends ParamMap>(e: V2Endpoint<M>): V2Endpoint => e as unknown as V2Endpoint;

const READ: readonly V2HttpMethod[] = ['GET', 'POST'];
const POST_ONLY: readonly V2HttpMethod[] = ['POST'];

// ---- shared params and checks ----

const seqnoAt = () => describe(int32(), 'masterchain seqno to read the state at; latest when absent');
const addressParams = { address: required(address()), seqno: seqnoAt() };
const blockParams = {
  workchain: required(int32()),
  shard: required(int64()),
  seqno: required(int32()),
  root_hash: hash(),
  file_hash: hash(),
};
const blockTxParams = {
  ...blockParams,
  after_lt: int64('lt of the last transaction of the previous page'),
  after_hash: accountId('account of the last transaction of the previous page'),
  count: withDefault(int64(), 40),
};
const txParams = {
  address: required(address()),
  limit: withDefault(int64(), 10),
  lt: int64('start from this transaction (with hash); 0 = the last one'),
  hash: hash(),
  to_lt: withDefault(int64(), 0),
  archival: withDefault(bool(), false),
};
const locateParams = { source: required(address()), destination: required(address()), created_lt: required(int64()) };
const bocParams = { boc: required(describe(boc(), 'base64 BoC of an external message')) };
const runParams = {
  address: required(address()),
  method: required(methodRef('get-method name or numeric id')),
  stack: required(stackJson()),
  seqno: seqnoAt(),
};

function positive(name: string, v: number | undefined): void {
  if (v !== undefined && v <= 0) throw invalid(`${name} should be positive`);
}

function nonNegative(name: string, v: number | bigint | undefined): void {
  if (v !== undefined && v < 0) throw invalid(`${name} should be non-negative`);
}

const atSeqno = (seqno: number | undefined) => (seqno === undefined ? {} : { seqno });

function blockTxArgs(p: Parsed<typeof blockTxParams>) {
  const count = p.count ?? 40n;
  if (count <= 0n) throw invalid('count should be positive');
  if (count > 10000n) throw invalid('count should be less or equal 10000');
  positive('seqno', p.seqno);
  nonNegative('after_lt', p.after_lt);
  if ((p.after_lt !== undefined) !== (p.after_hash !== undefined)) {
    throw invalid('after_lt and after_hash should be used together');
  }
  return {
    workchain: p.workchain,
    shard: p.shard,
    seqno: p.seqno,
    ...(p.root_hash ? { rootHash: p.root_hash } : {}),
    ...(p.file_hash ? { fileHash: p.file_hash } : {}),
    ...(p.after_lt !== undefined && p.after_hash ? { after: { lt: p.after_lt, accountHash: p.after_hash } } : {}),
    count: Number(count),
  };
}

function txArgs(p: Parsed<typeof txParams>) {
  const limit = p.limit ?? 10n;
  if (limit <= 0n) throw invalid('limit should be positive');
  if (limit > 1000n) throw invalid('limit should be less or equal 1000');
  nonNegative('lt', p.lt);
  nonNegative('to_lt', p.to_lt);
  // lt = 0 means "from the last transaction", as if absent
  const lt = p.lt === 0n ? undefined : p.lt;
  if ((lt !== undefined) !== (p.hash !== undefined)) throw invalid('lt and hash should be used together');
  return {
    address: p.address,
    limit: Number(limit),
    ...(lt !== undefined && p.hash ? { from: { lt, hash: p.hash } } : {}),
    toLt: p.to_lt ?? 0n,
    archival: p.archival ?? false,
  };
}

function locateArgs(p: Parsed<typeof locateParams>) {
  nonNegative('created_lt', p.created_lt);
  return { source: p.source, destination: p.destination, createdLt: p.created_lt };
}

function bocArg(p: { boc: Buffer | undefined }): { boc: Buffer } {
  if (!p.boc) throw invalid('empty boc');
  return { boc: p.boc };
}

/** The stack codecs throw ApiError with the reference's texts; the C++ variant reports them as validation errors. */
function stackArgs(parse: (json: unknown) => StackArg[], json: unknown): StackArg[] {
  try {
    return parse(json);
  } catch (e) {
    if (isApiError(e)) throw invalid(e.message, e.status);
    throw e;
  }
}

function runArgs(p: Parsed<typeof runParams>, parse: (json: unknown) => StackArg[]) {
  positive('seqno', p.seqno);
  return { address: p.address, method: p.method, ...atSeqno(p.seqno), stack: stackArgs(parse, p.stack) };
}

// ---- the endpoint table (service-spec.md "v2 endpoint list", v2.md §4) ----

export const V2_ENDPOINTS: readonly V2Endpoint[] = [
  // Accounts
  ...(
    [
      ['getAddressInformation', 'Account balance, code, data and last transaction (raw.fullAccountState)'],
      ['getExtendedAddressInformation', 'Account state parsed by tonlib (fullAccountState)'],
      ['getWalletInformation', 'Wallet detection: type, seqno, wallet_id'],
      ['getAddressBalance', 'Balance in nanotons, as a string'],
      ['getAddressState', 'uninitialized, active or frozen'],
      ['getTokenData', 'Jetton or NFT data of a contract'],
    ] as const
  ).map(([name, summary]) =>
    endpoint({
      name,
      methods: READ,
      category: 'Accounts',
      summary,
      params: addressParams,
      call: (api, p) => {
        positive('seqno', p.seqno);
        return api[name]({ address: p.address, ...atSeqno(p.seqno) });
      },
    }),
  ),

  // Blocks
  endpoint({
    name: 'getMasterchainInfo',
    methods: READ,
    category: 'Blocks',
    summary: 'Last and init masterchain blocks',
    params: {},
    call: (api) => api.getMasterchainInfo(),
  }),
  endpoint({
    name: 'getMasterchainBlockSignatures',
    methods: READ,
    category: 'Blocks',
    summary: 'Validator signatures of a masterchain block',
    params: { seqno: required(int32()) },
    call: (api, p) => {
      positive('seqno', p.seqno);
      return api.getMasterchainBlockSignatures({ seqno: p.seqno });
    },
  }),
  endpoint({
    name: 'getShardBlockProof',
    methods: READ,
    category: 'Blocks',
    summary: 'Proof chain from a masterchain block to a shard block',
    params: { workchain: required(int32()), shard: required(int64()), seqno: required(int32()), from_seqno: int32() },
    call: (api, p) => {
      positive('seqno', p.seqno);
      nonNegative('from_seqno', p.from_seqno);
      return api.getShardBlockProof({
        workchain: p.workchain,
        shard: p.shard,
        seqno: p.seqno,
        ...(p.from_seqno !== undefined ? { fromSeqno: p.from_seqno } : {}),
      });
    },
  }),
  endpoint({
    name: 'getConsensusBlock',
    methods: READ,
    category: 'Blocks',
    summary: 'Latest masterchain seqno the service agrees on',
    params: {},
    call: (api) => api.getConsensusBlock(),
  }),
  endpoint({
    name: 'lookupBlock',
    methods: READ,
    category: 'Blocks',
    summary: 'Block id by seqno, lt or unixtime (exactly one)',
    params: { workchain: required(int32()), shard: required(int64()), seqno: int32(), lt: int64(), unixtime: int32() },
    call: (api, p) => {
      positive('seqno', p.seqno);
      nonNegative('lt', p.lt);
      nonNegative('unixtime', p.unixtime);
      const given = [p.seqno, p.lt, p.unixtime].filter((v) => v !== undefined).length;
      if (given !== 1) throw invalid('exactly one of seqno, lt, unixtime should be specified');
      return api.lookupBlock({
        workchain: p.workchain,
        shard: p.shard,
        ...(p.seqno !== undefined ? { seqno: p.seqno } : {}),
        ...(p.lt !== undefined ? { lt: p.lt } : {}),
        ...(p.unixtime !== undefined ? { unixtime: p.unixtime } : {}),
      });
    },
  }),
  endpoint({
    name: 'getShards',
    aliases: ['shards'],
    methods: READ,
    category: 'Blocks',
    summary: 'Shard blocks referenced by a masterchain block',
    params: { seqno: required(int32()) },
    call: (api, p) => {
      positive('seqno', p.seqno);
      return api.getShards({ seqno: p.seqno });
    },
  }),
  endpoint({
    name: 'getBlockHeader',
    methods: READ,
    category: 'Blocks',
    summary: 'Block header',
    params: blockParams,
    call: (api, p) => {
      positive('seqno', p.seqno);
      return api.getBlockHeader({
        workchain: p.workchain,
        shard: p.shard,
        seqno: p.seqno,
        ...(p.root_hash ? { rootHash: p.root_hash } : {}),
        ...(p.file_hash ? { fileHash: p.file_hash } : {}),
      });
    },
  }),
  endpoint({
    name: 'getOutMsgQueueSize',
    aliases: ['getOutMsgQueueSizes'],
    methods: READ,
    category: 'Blocks',
    summary: 'Outbound message queue sizes per shard',
    params: {},
    call: (api) => api.getOutMsgQueueSize(),
  }),

  // Transactions
  endpoint({
    name: 'getBlockTransactions',
    methods: READ,
    category: 'Transactions',
    summary: 'Short transaction ids of a block, paged by after_lt/after_hash',
    params: blockTxParams,
    bareErrors: true,
    call: (api, p) => api.getBlockTransactions(blockTxArgs(p)),
  }),
  endpoint({
    name: 'getBlockTransactionsExt',
    methods: READ,
    category: 'Transactions',
    summary: 'Full transactions of a block, paged by after_lt/after_hash',
    params: blockTxParams,
    bareErrors: true,
    call: (api, p) => api.getBlockTransactionsExt(blockTxArgs(p)),
  }),
  endpoint({
    name: 'getTransactions',
    methods: READ,
    category: 'Transactions',
    summary: 'Transactions of an account, newest first',
    params: txParams,
    call: (api, p) => api.getTransactions(txArgs(p)),
  }),
  endpoint({
    name: 'getTransactionsStd',
    methods: READ,
    category: 'Transactions',
    summary: 'Transactions of an account in the raw.transactions shape',
    params: txParams,
    call: (api, p) => api.getTransactionsStd(txArgs(p)),
  }),
  endpoint({
    name: 'tryLocateTx',
    methods: READ,
    category: 'Transactions',
    summary: 'Same as tryLocateResultTx',
    params: locateParams,
    call: (api, p) => api.tryLocateTx(locateArgs(p)),
  }),
  endpoint({
    name: 'tryLocateResultTx',
    methods: READ,
    category: 'Transactions',
    summary: 'Transaction on destination caused by the message source → destination with created_lt',
    params: locateParams,
    call: (api, p) => api.tryLocateResultTx(locateArgs(p)),
  }),
  endpoint({
    name: 'tryLocateSourceTx',
    methods: READ,
    category: 'Transactions',
    summary: 'Transaction on source that sent the message source → destination with created_lt',
    params: locateParams,
    call: (api, p) => api.tryLocateSourceTx(locateArgs(p)),
  }),

  // Send
  endpoint({
    name: 'sendBoc',
    methods: POST_ONLY,
    category: 'Send',
    summary: 'Send an external message',
    params: bocParams,
    call: (api, p) => api.sendBoc(bocArg(p)),
  }),
  endpoint({
    name: 'sendBocReturnHash',
    methods: POST_ONLY,
    category: 'Send',
    summary: 'Send an external message; answers its hash and normalized hash',
    params: bocParams,
    call: (api, p) => api.sendBocReturnHash(bocArg(p)),
  }),
  endpoint({
    name: 'sendBocReturnHashNoError',
    methods: POST_ONLY,
    category: 'Send',
    summary: 'As sendBocReturnHash, but a refused message is a 400',
    params: bocParams,
    call: async (api, p) => {
      const args = bocArg(p);
      try {
        return await api.sendBocReturnHash(args);
      } catch (e) {
        // the C++ variant reports every send failure of this method as 400 with the source's text
        if (isApiError(e)) throw new ApiError(400, e.message);
        throw e;
      }
    },
  }),
  endpoint({
    name: 'estimateFee',
    methods: POST_ONLY,
    category: 'Send',
    summary: 'Fees of an external message, by emulation',
    params: {
      address: required(address()),
      body: required(describe(boc(), 'base64 BoC of the message body')),
      init_code: withDefault(boc(), ''),
      init_data: withDefault(boc(), ''),
      ignore_chksig: withDefault(bool(), true),
    },
    call: (api, p) => {
      if (!p.body) throw invalid('empty body');
      return api.estimateFee({
        address: p.address,
        body: p.body,
        ...(p.init_code ? { initCode: p.init_code } : {}),
        ...(p.init_data ? { initData: p.init_data } : {}),
        ignoreChksig: p.ignore_chksig ?? true,
      });
    },
  }),

  // Run method
  endpoint({
    name: 'runGetMethod',
    methods: POST_ONLY,
    category: 'Run method',
    summary: 'Run a get-method; stack in the legacy [type, value] form',
    params: runParams,
    call: (api, p) => api.runGetMethod(runArgs(p, parseLegacyStack)),
  }),
  endpoint({
    name: 'runGetMethodStd',
    methods: POST_ONLY,
    category: 'Run method',
    summary: 'Run a get-method; stack as typed tvm.stackEntry* objects',
    params: runParams,
    call: (api, p) => api.runGetMethodStd(runArgs(p, parseStdStack)),
  }),

  // Utils
  endpoint({
    name: 'detectAddress',
    methods: READ,
    category: 'Utils',
    summary: 'Every form of an address',
    params: { address: required(addressText()) },
    call: (api, p) => api.detectAddress({ address: p.address }),
  }),
  endpoint({
    name: 'detectHash',
    methods: READ,
    category: 'Utils',
    summary: 'A hash as base64, base64url and hex',
    params: { hash: required(hashText()) },
    call: (api, p) => api.detectHash({ hash: p.hash }),
  }),
  endpoint({
    name: 'packAddress',
    methods: READ,
    category: 'Utils',
    summary: 'Raw address to user-friendly form',
    params: { address: required(addressText()) },
    call: (api, p) => api.packAddress({ address: p.address }),
  }),
  endpoint({
    name: 'unpackAddress',
    methods: READ,
    category: 'Utils',
    summary: 'User-friendly address to raw form',
    params: { address: required(addressText()) },
    call: (api, p) => api.unpackAddress({ address: p.address }),
  }),

  // Configuration
  endpoint({
    name: 'getConfigParam',
    methods: READ,
    category: 'Configuration',
    summary: 'One blockchain config parameter (config_id, or its alias param)',
    params: { config_id: int32(), param: int32(), seqno: seqnoAt() },
    call: (api, p, from) => {
      // in a query config_id overrides param (C++ variant); a body must name exactly one
      if (from === 'body' && (p.config_id === undefined) === (p.param === undefined)) {
        throw invalid('only one of config_id or param should be specified');
      }
      const configId = p.config_id ?? p.param;
      if (configId === undefined) throw invalid('only one of config_id or param should be specified');
      nonNegative('param', configId);
      positive('seqno', p.seqno);
      return api.getConfigParam({ configId, ...atSeqno(p.seqno) });
    },
  }),
  endpoint({
    name: 'getConfigAll',
    methods: READ,
    category: 'Configuration',
    summary: 'The whole blockchain config',
    params: { seqno: seqnoAt() },
    call: (api, p) => {
      positive('seqno', p.seqno);
      return api.getConfigAll(atSeqno(p.seqno));
    },
  }),
  endpoint({
    name: 'getLibraries',
    methods: READ,
    category: 'Configuration',
    summary: 'Library cells by hash (repeat ?libraries= for several)',
    params: { libraries: list(hash()) },
    call: (api, p) => api.getLibraries({ libraries: p.libraries.filter((h): h is Buffer => h !== undefined) }),
  }),
];

/** JSON-RPC method name → endpoint: every name and alias. */
export const V2_RPC_METHODS: ReadonlyMap<string, V2Endpoint> = new Map(
  V2_ENDPOINTS.flatMap((e) => [e.name, ...(e.aliases ?? [])].map((n) => [n, e] as const)),
);

// ---- running an endpoint ----

/** A POST body or JSON-RPC params as an object; an empty body is `{}`. */
function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  let json: unknown = body;
  if (typeof body === 'string') {
    if (body.trim() === '') return {};
    try {
      json = JSON.parse(body);
    } catch {
      throw parseFail('body is not valid JSON');
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw parseFail('body must be a JSON object');
  return json as Record<string, unknown>;
}

function wrap(e: V2Endpoint, err: ParamError, from: Source): ApiError {
  if (e.bareErrors) return new ApiError(err.status, err.message);
  const prefix = err.stage === 'validate' ? 'failed to validate request' : `failed to parse ${from === 'query' ? 'get' : 'post'} request`;
  return new ApiError(err.status, `${prefix}: ${err.message}`);
}

/** Parses, validates and calls one endpoint; parameter problems come out as ApiError with the endpoint's wording. */
export async function runEndpoint(
  api: V2Api,
  e: V2Endpoint,
  input: Map<string, string[]> | unknown,
  from: Source,
): Promise<unknown> {
  try {
    const src = input instanceof Map ? (input as Map<string, string[]>) : bodyObject(input);
    const missing = e.bareErrors ? (n: string) => `failed to parse ${n}` : undefined;
    const params = readParams(e.params, src, missing);
    return await e.call(api, params, from);
  } catch (err) {
    if (err instanceof ParamError) throw wrap(e, err, from);
    throw err;
  }
}

// ---- mounting ----

interface Envelope {
  ok: boolean;
  result?: unknown;
  error?: string;
  code?: number;
  jsonrpc?: '2.0';
  id?: unknown;
}

const fail = (status: number, error: string): Envelope => ({ ok: false, error, code: status });

const send = (reply: FastifyReply, status: number, payload: Envelope | string) =>
  reply.code(status).header('content-type', 'application/json; charset=utf-8').send(payload);

/**
 * The success envelope as text when the result is an upstream answer still held as its JSON text
 * (upstream/shared-json.ts): the very bytes serialising `{ ok, result, ...more }` would give, without doing it.
 */
function okText(result: unknown, more?: Record<string, unknown>): string | undefined {
  const text = preSerialized(result);
  const tail = more ? `,${JSON.stringify(more).slice(1, -1)}` : '';
  return text === undefined ? undefined : `{"ok":true,"result":${text}${tail}}`;
}

/** Any thrown value as status + envelope; unexpected errors are logged and hidden behind `internal error`. */
function errorEnvelope(req: FastifyRequest, reply: FastifyReply, err: unknown): [number, Envelope] {
  if (isApiError(err)) {
    // a shed request says when to come back, so clients back off instead of hammering a full queue
    if (err.retryAfterS !== undefined) reply.header('retry-after', String(err.retryAfterS));
    return [err.status, fail(err.status, err.message)];
  }
  const status = (err as FastifyError | undefined)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return [status, fail(status, (err as Error).message)];
  }
  req.log.error({ err }, 'v2 request failed');
  return [500, fail(500, 'internal error')];
}

/** Mounts every endpoint of V2_ENDPOINTS (and its aliases) under /api/v2, plus POST /api/v2/jsonRPC. */
export function registerV2Routes(app: FastifyInstance, deps: { v2: V2Api }): void {
  const known = new Set(['/jsonRPC', ...V2_ENDPOINTS.flatMap((e) => [e.name, ...(e.aliases ?? [])].map((n) => `/${n}`))]);

  app.register(
    async (v2) => {
      // bodies are kept as text whatever the content type, so malformed JSON gets a 422 in the envelope
      v2.removeAllContentTypeParsers();
      v2.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

      v2.setErrorHandler((err, req, reply) => {
        const [status, body] = errorEnvelope(req, reply, err);
        return send(reply, status, body);
      });

      v2.setNotFoundHandler((req, reply) => {
        const path = req.url.split('?')[0]!.slice(V2_PREFIX.length);
        if (known.has(path)) return send(reply, 405, fail(405, `method ${req.method} is not supported`));
        return send(reply, 404, fail(404, 'Not Found'));
      });

      for (const e of V2_ENDPOINTS) {
        const handler = async (req: FastifyRequest, reply: FastifyReply) => {
          const from: Source = req.method === 'POST' ? 'body' : 'query';
          const input = from === 'query' ? queryValues(req.url) : req.body;
          const result = await runEndpoint(deps.v2, e, input, from);
          return send(reply, 200, okText(result) ?? { ok: true, result });
        };
        for (const n of [e.name, ...(e.aliases ?? [])]) v2.route({ method: [...e.methods], url: `/${n}`, handler });
      }

      v2.post('/jsonRPC', async (req, reply) => {
        let id: unknown;
        const rpcFields = () => ({ jsonrpc: '2.0' as const, ...(id !== undefined ? { id } : {}) });
        const answer = (status: number, env: Envelope) => send(reply, status, { ...env, ...rpcFields() });
        try {
          let body: Record<string, unknown>;
          try {
            body = bodyObject(req.body);
          } catch (err) {
            throw new ApiError(422, `failed to parse post request: ${(err as Error).message}`);
          }
          id = body.id;
          const { method, params } = body;
          if (typeof method !== 'string' || method === '') throw new ApiError(422, 'method required');
          if (Array.isArray(params) && params.length > 0) throw new ApiError(422, 'params must contain an object');
          const e = V2_RPC_METHODS.get(method);
          if (!e) throw new ApiError(422, 'Unknown method');
          const args = typeof params === 'object' && params !== null && !Array.isArray(params) ? params : {};
          const result = await runEndpoint(deps.v2, e, args, 'body');
          const text = okText(result, rpcFields());
          if (text !== undefined) return send(reply, 200, text);
          return answer(200, { ok: true, result });
        } catch (err) {
          const [status, env] = errorEnvelope(req, reply, err);
          return answer(status, env);
        }
      });
    },
    { prefix: V2_PREFIX },
  );
}
