/**
 * v3 /acton: contract identification, body decoding and typed getters from a contract catalog
 * (toncenter-newer.md §8, the second design of a feature branch: `/contracts`, `POST /decode`,
 * `POST /runGetMethod`), mounted only with V3_BRANCH_FEATURES=acton. toncenter's catalog is the pinned
 * ton-blockchain/abis; a gateway answers from its own (the local chain: the contracts genesis deploys and the
 * standard wallets). Every answer and error names the catalog's revision; GETs carry a strong ETag.
 */
import { NO_CACHE, TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import { bodyText } from './body.js';
import { hash, int32, list, text, v3Route, type V3ParamSpec } from './params.js';

export interface ActonParameter {
  name: string;
  /** a type name: int, address, cell, bool */
  type: string;
}

export interface ActonGetMethod {
  name: string;
  method_id: number;
  parameters: ActonParameter[];
  /** the type name of what it returns */
  return: string;
  description?: string;
  unsupported?: string;
}

export interface ContractLink {
  kind: string;
  title: string;
  url: string;
}

export interface ActonContract {
  catalog_id: string;
  display_name: string;
  /** base64 */
  code_hashes: string[];
  /** raw */
  known_addresses: string[];
  links: ContractLink[];
  get_methods: ActonGetMethod[];
  /** the contract's ABI, only when the request named a selector */
  abi?: Record<string, unknown>;
}

export interface ActonContractsResponse {
  contracts: ActonContract[];
  /** entries selected, before limit and offset */
  total: number;
  limit: number;
  offset: number;
}

/** The kind of body a contract's ABI may declare. */
export const ACTON_DIRECTIONS = ['storage', 'deployment_storage', 'incoming_messages', 'incoming_external', 'outgoing_messages', 'emitted_events'] as const;
export type ActonDirection = (typeof ACTON_DIRECTIONS)[number];

/** A decoded value's type as the ABI names it. */
export interface ActonTypeInfo {
  name: string;
}

export interface ActonDecodeResponse {
  catalog_id: string;
  direction: ActonDirection;
  type: ActonTypeInfo;
  /** fields by name: integers as decimal strings, addresses raw, cells as base64 BoCs */
  decoded: unknown;
}

/** A TVM stack value: integers as decimal strings, cells and slices as base64 BoCs. */
export type ActonStackValue =
  | { type: 'int'; value: string }
  | { type: 'cell' | 'slice'; value: string }
  | { type: 'null' }
  | { type: 'tuple'; value: ActonStackValue[] };

/** The account a getter ran on, as of the block it was read at. */
export interface ActonSnapshot {
  /** raw */
  address: string;
  account_status: string;
  account_state_hash: string | null;
  code_hash: string | null;
  /** the library's code hash, when the code is a library reference */
  implementation_hash?: string;
  data_hash: string | null;
  last_transaction_hash: string | null;
  last_transaction_lt: string | null;
  /** masterchain seqno of the state */
  seqno?: number;
}

export interface ActonRunResponse {
  stack: ActonStackValue[];
  /** the stack as v2's runGetMethodStd prints it (`tvm.stackEntry*` objects) */
  raw_stack: Record<string, unknown>[];
  gas_used: string;
  exit_code: number;
  stack_error?: string;
  snapshot: ActonSnapshot;
  catalog_id: string;
  method: ActonGetMethod;
  identification: 'exact_code_hash' | 'library_reference';
  /** exit code 0 or 1 */
  success: boolean;
  decoded: unknown;
  decode_error?: string;
}

export interface ActonContractsParams {
  codeHash?: Buffer[];
  catalogId?: string[];
  limit?: number;
  offset?: number;
}

export interface ActonDecodeParams {
  catalogId?: string;
  codeHash?: string;
  direction: ActonDirection;
  body: string;
}

export interface ActonRunParams {
  address: string;
  method: string;
  args?: Record<string, unknown>;
  seqno?: number;
}

/** What a source answers for these routes. */
export interface ActonApi {
  actonContracts(p: ActonContractsParams): Promise<ActonContractsResponse>;
  actonDecode(p: ActonDecodeParams): Promise<ActonDecodeResponse>;
  actonRunGetMethod(p: ActonRunParams): Promise<ActonRunResponse>;
}

/** selectors one /contracts call may name (each selected entry carries its whole ABI) */
export const MAX_ACTON_SELECTORS = 50;

/** Answers and errors stamped with the revision of the catalog they come from (the X-Acton-Catalog-Revision header). */
const revisions = new WeakMap<object, string>();

export function withCatalogRevision<T extends object>(x: T, revision: string): T {
  revisions.set(x, revision);
  return x;
}

export const catalogRevisionOf = (x: unknown): string | undefined => (typeof x === 'object' && x !== null ? revisions.get(x) : undefined);

/** A JSON object member read as it is: the source judges it. */
const bodyJson = (kind: string, extra: Partial<V3ParamSpec> = {}): V3ParamSpec => ({
  in: 'body',
  kind,
  reader: (body: Record<string, unknown>, _struct: string, field: string) => body[field] ?? undefined,
  list: false,
  required: false,
  ...extra,
});

export const ACTON_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/acton/contracts',
    summary: 'Catalog contracts, by code hash or catalog id',
    branch: 'acton',
    etag: true,
    params: {
      code_hash: list(hash()),
      catalog_id: list(text()),
      limit: int32({ description: '1..1000; default every entry' }),
      offset: int32({ description: 'at least 0; default 0' }),
    },
    response: 'ActonContractsResponse',
    cache: TTL_CACHE,
    api: 'actonContracts',
    check: (p: ActonContractsParams) => {
      if ((p.codeHash?.length ?? 0) + (p.catalogId?.length ?? 0) > MAX_ACTON_SELECTORS) {
        throw new ApiError(422, `provide at most ${MAX_ACTON_SELECTORS} code_hash and catalog_id selectors`);
      }
      if (p.limit !== undefined && (p.limit < 1 || p.limit > 1000)) throw new ApiError(422, 'limit must be between 1 and 1000');
      if (p.offset !== undefined && p.offset < 0) throw new ApiError(422, 'offset must be nonnegative');
    },
  }),

  v3Route({
    methods: ['POST'],
    path: '/acton/decode',
    summary: 'Decode a BoC as one of a catalog contract’s declared types',
    branch: 'acton',
    strictBody: true,
    bodyStruct: 'ActonDecodeRequest',
    params: {
      catalog_id: bodyText(),
      code_hash: bodyText(),
      direction: bodyText({ description: ACTON_DIRECTIONS.join(', ') }),
      body: bodyText({ description: 'base64 BoC' }),
    },
    response: 'ActonDecodeResponse',
    cache: NO_CACHE,
    api: 'actonDecode',
    check: (p: Partial<ActonDecodeParams>) => {
      if ((p.catalogId === undefined) === (p.codeHash === undefined)) throw new ApiError(422, 'provide exactly one of catalog_id or code_hash');
      if (!ACTON_DIRECTIONS.includes(p.direction as ActonDirection)) throw new ApiError(422, `direction must be one of ${ACTON_DIRECTIONS.join(', ')}`);
      if (p.body === undefined) throw new ApiError(422, 'body BOC is required');
    },
  }),

  v3Route({
    methods: ['POST'],
    path: '/acton/runGetMethod',
    summary: 'Run a catalog contract’s getter with named arguments and decode what it returns',
    branch: 'acton',
    strictBody: true,
    bodyStruct: 'ActonRunRequest',
    params: {
      address: bodyText(),
      method: bodyText({ description: 'getter name, or a decimal int32 TVM method id' }),
      args: bodyJson('object', { description: 'named arguments' }),
      seqno: bodyJson('int32', { description: 'masterchain seqno, above 0; default the latest' }),
    },
    response: 'ActonRunResponse',
    cache: NO_CACHE,
    api: 'actonRunGetMethod',
    check: (p: Partial<ActonRunParams> & { args?: unknown; seqno?: unknown }) => {
      if (p.address === undefined) throw new ApiError(422, 'address is required');
      if (p.method === undefined) throw new ApiError(422, 'method is required');
      if (p.method.length > 256) throw new ApiError(422, 'method must not exceed 256 characters');
      if (p.args !== undefined && (typeof p.args !== 'object' || Array.isArray(p.args))) throw new ApiError(422, 'args must be an object');
      if (p.seqno !== undefined && (!Number.isInteger(p.seqno) || (p.seqno as number) <= 0 || (p.seqno as number) > 0x7fffffff)) {
        throw new ApiError(422, 'seqno must be a positive int32');
      }
    },
  }),
];
