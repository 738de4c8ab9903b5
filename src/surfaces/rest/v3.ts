/**
 * The toncenter Indexer API v3 surface, part 1 (../shared/reference/v3.md §1, §2.1, §2.2, §2.7, §5):
 * blocks, transactions, messages, accounts and the legacy v2 proxies under /api/v3.
 *
 * Every route is one entry of V3_ROUTES (method, path, aliases, query params, body fields, call), so an
 * openapi generator can read the table. No envelope, no `@type`; errors are `{"code":N,"error":"…"}`
 * with HTTP status N. Bad input is always a 4xx, also where the reference answers 500.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, isApiError } from '../../api/errors.js';
import type { V3Api, V3Options } from '../../api/v3.js';
import {
  address,
  addressNullable,
  bool,
  checkDirection,
  checkSort,
  decodeQuery,
  hash,
  int32,
  list,
  mandatory,
  opcode,
  parseAddressV3,
  rawQuery,
  shard,
  text,
  uint64,
  utime,
  type ParamMap,
  type Parsed,
} from './v3-params.js';
import { bocField, boolField, jsonObject, stackField, stringField } from './v3-body.js';
import { LimitError, checkMethodRef } from '../../model/limits.js';
import { V3_OTHER_ROUTES } from './v3-other.js';
import {
  bodyAddress,
  defined,
  ltParams,
  nonEmpty,
  page,
  pageParams,
  requireSeqno,
  route,
  sortParam,
  utimeParams,
  V3_PREFIX,
  type V3Route,
  timeWindow,
  pageSort,
} from './v3-route.js';
import { V3_TOKEN_ROUTES } from './v3-tokens.js';
import { V3_TRACE_ROUTES } from './v3-traces.js';
import { answersOf, preSerialized } from '../../api/raw-answer.js';

export { V3_PREFIX, type V3Route, type V3CallContext, type V3BodyField } from './v3-route.js';

// ---- the table ----

const V3_CORE_ROUTES: readonly V3Route[] = [
  route({
    method: 'GET',
    path: '/masterchainInfo',
    summary: 'First and last indexed masterchain blocks',
    query: {},
    response: 'MasterchainInfo',
    call: (api) => api.masterchainInfo(),
  }),

  route({
    method: 'GET',
    path: '/blocks',
    summary: 'Blocks by filter',
    query: {
      workchain: int32(),
      shard: shard(),
      seqno: int32(),
      root_hash: hash(),
      file_hash: hash(),
      mc_seqno: int32(),
      ...utimeParams,
      ...ltParams,
      ...pageParams,
      ...sortParam,
    },
    response: 'BlocksResponse',
    call: (api, q) => {
      return api.blocks(
        defined({
          workchain: q.workchain,
          shard: q.shard,
          seqno: q.seqno,
          rootHash: q.root_hash,
          fileHash: q.file_hash,
          mcSeqno: q.mc_seqno,
          ...timeWindow(q),
          ...pageSort(q),
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/masterchainBlockShardState',
    summary: 'Shard tops of a masterchain block',
    query: { seqno: mandatory(int32()) },
    // v3.md §2.1: the answer is {"blocks"}; the openapi wrongly names TransactionsResponse
    response: 'BlocksResponse',
    call: (api, q) => api.masterchainBlockShardState({ seqno: requireSeqno(q.seqno) }),
  }),

  route({
    method: 'GET',
    path: '/masterchainBlockShards',
    summary: 'Every block committed by a masterchain block',
    query: { seqno: mandatory(int32()), ...pageParams },
    response: 'BlocksResponse',
    call: (api, q) => {
      const seqno = requireSeqno(q.seqno);
      return api.masterchainBlockShards({ seqno, ...page(q) });
    },
  }),

  route({
    method: 'GET',
    path: '/transactions',
    summary: 'Transactions by filter',
    query: {
      workchain: int32(),
      shard: shard(),
      seqno: int32(),
      mc_seqno: int32(),
      account: list(address()),
      exclude_account: list(address()),
      hash: list(hash()),
      lt: uint64(),
      ...utimeParams,
      ...ltParams,
      ...pageParams,
      ...sortParam,
    },
    response: 'TransactionsResponse',
    call: (api, q, { options }) => {
      return api.transactions(
        defined({
          workchain: q.workchain,
          shard: q.shard,
          seqno: q.seqno,
          mcSeqno: q.mc_seqno,
          account: nonEmpty(q.account),
          excludeAccount: nonEmpty(q.exclude_account),
          hash: nonEmpty(q.hash),
          lt: q.lt,
          ...timeWindow(q),
          ...pageSort(q),
          ...options,
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/transactionsByMasterchainBlock',
    summary: 'Transactions of a masterchain block and its shard blocks',
    query: { seqno: mandatory(int32()), ...pageParams, ...sortParam },
    response: 'TransactionsResponse',
    call: (api, q, { options }) => {
      const seqno = requireSeqno(q.seqno);
      const { limit, offset } = page(q);
      return api.transactionsByMasterchainBlock(defined({ seqno, limit, offset, sort: checkSort(q.sort), ...options }));
    },
  }),

  route({
    method: 'GET',
    path: '/transactionsByMessage',
    summary: 'Transactions whose in or out message matches',
    query: { msg_hash: list(hash()), body_hash: hash(), opcode: opcode(), direction: text(), ...pageParams },
    response: 'TransactionsResponse',
    call: (api, q, { options }) => {
      const direction = checkDirection(q.direction);
      if (!q.msg_hash.length && q.body_hash === undefined && q.opcode === undefined) {
        throw new ApiError(422, 'at least one of msg_hash, body_hash, opcode should be specified');
      }
      const { limit, offset } = page(q);
      return api.transactionsByMessage(
        defined({
          msgHash: nonEmpty(q.msg_hash),
          bodyHash: q.body_hash,
          opcode: q.opcode,
          direction,
          limit,
          offset,
          ...options,
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/adjacentTransactions',
    summary: 'Parent or child transactions of a transaction',
    query: { hash: mandatory(hash()), direction: text() },
    response: 'TransactionsResponse',
    call: (api, q, { options }) => {
      const direction = checkDirection(q.direction);
      if (q.hash === undefined) throw new ApiError(422, 'hash is required');
      return api.adjacentTransactions(defined({ hash: q.hash, direction, ...options }));
    },
  }),

  route({
    method: 'GET',
    path: '/messages',
    summary: 'Messages by filter',
    query: {
      msg_hash: list(hash()),
      hash: hash(),
      body_hash: hash(),
      source: addressNullable(),
      destination: addressNullable(),
      opcode: opcode(),
      ...utimeParams,
      ...ltParams,
      direction: text(),
      exclude_externals: bool(),
      only_externals: bool(),
      ...pageParams,
      ...sortParam,
    },
    response: 'MessagesResponse',
    call: (api, q, { options }) => {
      const direction = checkDirection(q.direction);
      // the legacy single `hash` applies only when msg_hash is not given
      const msgHash = q.msg_hash.length ? q.msg_hash : q.hash ? [q.hash] : undefined;
      return api.messages(
        defined({
          msgHash,
          bodyHash: q.body_hash,
          source: q.source,
          destination: q.destination,
          opcode: q.opcode,
          direction,
          excludeExternals: q.exclude_externals,
          onlyExternals: q.only_externals,
          ...timeWindow(q),
          ...pageSort(q),
          ...options,
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/accountStates',
    summary: 'Latest states of accounts',
    query: { address: mandatory(list(address())), include_boc: bool(), code_hash: list(hash()) },
    response: 'AccountStatesResponse',
    call: (api, q, { options }) => {
      if (!q.address.length) throw new ApiError(422, 'address of account is required');
      return api.accountStates(
        defined({ address: q.address, includeBoc: q.include_boc ?? true, codeHash: nonEmpty(q.code_hash), ...options }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/walletStates',
    summary: 'Wallet states of accounts',
    query: { address: mandatory(list(address())) },
    response: 'WalletStatesResponse',
    call: (api, q, { options }) => {
      if (!q.address.length) throw new ApiError(422, 'address of account is required');
      return api.walletStates(defined({ address: q.address, ...options }));
    },
  }),

  route({
    method: 'GET',
    path: '/addressBook',
    summary: 'Friendly forms, domains and interfaces of addresses, keyed by the given strings',
    query: { address: mandatory(list(text())) },
    response: 'AddressBook',
    call: (api, q) => {
      if (!q.address.length) throw new ApiError(422, 'at least 1 address required');
      return api.addressBook({ address: q.address });
    },
  }),

  route({
    method: 'GET',
    path: '/topAccountsByBalance',
    summary: 'Accounts by balance, descending',
    query: { ...pageParams },
    response: 'AccountBalance[]',
    call: (api, q) => api.topAccountsByBalance(page(q)),
  }),

  route({
    method: 'GET',
    path: '/addressInformation',
    aliases: ['/account'],
    summary: 'Account state, v2 style',
    query: { address: mandatory(address()), use_v2: bool() },
    response: 'V2AddressInformation',
    call: (api, q) => {
      // the reference answers 401 here (sic, v3.md §2.7)
      if (!q.address) throw new ApiError(401, 'address of account is required');
      return api.addressInformation(defined({ address: q.address, useV2: q.use_v2 ?? false }));
    },
  }),

  route({
    method: 'GET',
    path: '/walletInformation',
    aliases: ['/wallet'],
    summary: 'Wallet state, v2 style',
    query: { address: mandatory(address()), use_v2: bool() },
    response: 'V2WalletInformation',
    call: (api, q) => {
      if (!q.address) throw new ApiError(401, 'address of account is required');
      return api.walletInformation(defined({ address: q.address, useV2: q.use_v2 ?? false }));
    },
  }),

  route({
    method: 'POST',
    path: '/message',
    summary: 'Send an external message',
    query: {},
    body: { struct: 'V2SendMessageRequest', fields: { boc: { type: 'string', required: true, description: 'base64 BoC' } } },
    response: 'V2SendMessageResult',
    call: (api, _q, { body }) => {
      if (stringField(body, 'V2SendMessageRequest', 'boc') === '') throw new ApiError(401, 'boc is required');
      return api.message({ boc: bocField(body, 'V2SendMessageRequest', 'boc')! });
    },
  }),

  route({
    method: 'POST',
    path: '/runGetMethod',
    summary: 'Run a get-method',
    query: {},
    body: {
      struct: 'V2RunGetMethodRequest',
      fields: {
        address: { type: 'string', required: true },
        method: { type: 'string', required: true },
        stack: { type: 'array', description: '[{type: num|cell|slice, value}]' },
      },
    },
    // v3.md §9: the openapi reuses the request schema for the answer
    response: 'V2RunGetMethodResult',
    call: (api, _q, { body }) => {
      const addr = stringField(body, 'V2RunGetMethodRequest', 'address');
      if (addr === '') throw new ApiError(401, 'address is required');
      const method = stringField(body, 'V2RunGetMethodRequest', 'method');
      if (method === '') throw new ApiError(401, 'method is required');
      methodIdFits(method);
      const parsed = bodyAddress(addr);
      const stack = stackField(body);
      return api.runGetMethod({ address: parsed, method, stack });
    },
  }),

  route({
    method: 'POST',
    path: '/estimateFee',
    summary: 'Estimate the fees of an external message',
    query: {},
    body: {
      struct: 'V2EstimateFeeRequest',
      fields: {
        address: { type: 'string', required: true },
        body: { type: 'string', required: true, description: 'base64 BoC' },
        init_code: { type: 'string', description: 'base64 BoC' },
        init_data: { type: 'string', description: 'base64 BoC' },
        ignore_chksig: { type: 'boolean' },
      },
    },
    response: 'V2EstimateFeeResult',
    call: (api, _q, { body }) => {
      const S = 'V2EstimateFeeRequest';
      const addr = stringField(body, S, 'address');
      if (addr === '') throw new ApiError(422, 'address is required');
      const parsed = bodyAddress(addr);
      const msgBody = bocField(body, S, 'body');
      if (!msgBody) throw new ApiError(422, 'body is required');
      return api.estimateFee(
        defined({
          address: parsed,
          body: msgBody,
          initCode: bocField(body, S, 'init_code'),
          initData: bocField(body, S, 'init_data'),
          ignoreChksig: boolField(body, S, 'ignore_chksig'),
        }),
      );
    },
  }),
];

/** A numeric method id must fit TVM's 32 bits; a name is anything. */
function methodIdFits(method: string): void {
  try {
    checkMethodRef(method);
  } catch (e) {
    if (e instanceof LimitError) throw new ApiError(422, e.message);
    throw e;
  }
}

/** Every route: part 1 here, part 2 in the token, trace and other route modules. */
export const V3_ROUTES: readonly V3Route[] = [...V3_CORE_ROUTES, ...V3_TOKEN_ROUTES, ...V3_TRACE_ROUTES, ...V3_OTHER_ROUTES];

// ---- request settings (v3.md §1.1) ----

const BOOL_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const BOOL_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Header first, then the query param; unreadable values are ignored, as the reference ignores them. */
function settingFlag(req: FastifyRequest, query: Map<string, string[]>, header: string, param: string): boolean | undefined {
  const h = req.headers[header];
  const raw = (Array.isArray(h) ? h[0] : h) ?? query.get(param)?.[0];
  if (raw === undefined) return undefined;
  return BOOL_TRUE.has(raw) ? true : BOOL_FALSE.has(raw) ? false : undefined;
}

function optionsOf(req: FastifyRequest, query: Map<string, string[]>): V3Options {
  const o: V3Options = {};
  if (settingFlag(req, query, 'x-no-address-book', 'x_no_address_book')) o.noAddressBook = true;
  if (settingFlag(req, query, 'x-no-metadata', 'x_no_metadata')) o.noMetadata = true;
  return o;
}

// ---- mounting ----

const sendError = (reply: FastifyReply, status: number, message: string) =>
  reply.code(status).header('content-type', 'application/json; charset=utf-8').send({ code: status, error: message });

/** Mounts V3_ROUTES under /api/v3 with the v3 error shape, a v3 404/405 and lenient JSON bodies. */
export function registerV3Routes(app: FastifyInstance, deps: { v3: V3Api }): void {
  // upstream mode: a repeated request answered from the upstream cache without being run again
  const answers = answersOf(deps.v3);
  app.register(
    async (v3) => {
      // bodies are read as text whatever the content type, so a bad body gets a v3-shaped 422
      v3.removeAllContentTypeParsers();
      v3.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

      v3.setErrorHandler((err: FastifyError | ApiError, _req, reply) => {
        if (isApiError(err)) {
          // a shed request says when to come back, so clients back off instead of hammering a full queue
          if (err.retryAfterS !== undefined) reply.header('retry-after', String(err.retryAfterS));
          return sendError(reply, err.status, err.message);
        }
        const status = (err as FastifyError).statusCode;
        if (status && status >= 400 && status < 500) return sendError(reply, status, err.message);
        return sendError(reply, 500, `internal server error: ${err.message}`);
      });

      v3.setNotFoundHandler((req, reply) => {
        const path = req.url.split('?')[0]!;
        const known = V3_ROUTES.some((r) => [r.path, ...(r.aliases ?? [])].some((p) => V3_PREFIX + p === path));
        if (known) return sendError(reply, 405, 'Method Not Allowed');
        return sendError(reply, 404, `Cannot ${req.method} ${path}`);
      });

      for (const r of V3_ROUTES) {
        const handler = async (req: FastifyRequest, reply: FastifyReply) => {
          const alias = answers && r.method === 'GET' ? answers.aliasOf(req.url, req.headers) : undefined;
          const known = alias !== undefined ? answers!.lookup(alias) : undefined;
          if (known !== undefined) {
            reply.header('content-type', 'application/json; charset=utf-8');
            return known;
          }
          const query = rawQuery(req.url);
          const q = decodeQuery(r.query, query);
          const body = r.method === 'POST' ? jsonObject(req.body, r.body?.struct ?? 'Request') : {};
          let readHeaders = false;
          const header = (name: string): string | undefined => {
            readHeaders = true;
            const h = req.headers[name];
            return Array.isArray(h) ? h[0] : h;
          };
          const tracked = alias !== undefined ? answers!.track(deps.v3) : undefined;
          const result = await r.call(tracked?.source ?? deps.v3, q, { options: optionsOf(req, query), body, header });
          // upstream mode: an answer passed on untouched comes with its JSON text, the very bytes serialising it gives
          const text = preSerialized(result);
          if (text === undefined) return result;
          if (tracked) answers!.remember(alias!, result, tracked.calls(), readHeaders);
          reply.header('content-type', 'application/json; charset=utf-8');
          return text;
        };
        for (const p of [r.path, ...(r.aliases ?? [])]) v3.route({ method: r.method, url: p, handler });
      }
    },
    { prefix: V3_PREFIX },
  );
}
