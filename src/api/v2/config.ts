/** v2 configuration (v2.md §4.8, §8): blockchain config parameters and library cells. */
import { TTL_CACHE, type CachePolicy } from '../descriptor.js';
import { atSeqnoOr, endpoint, object, READ, type V2Endpoint } from './endpoint.js';
import { seqnoAt } from './accounts.js';
import type { AtSeqno, TvmCell } from './objects.js';
import { at, hash, int32, list } from './params.js';

export interface ConfigInfo {
  '@type': 'configInfo';
  config: TvmCell;
}

export interface LibraryResult {
  '@type': 'smc.libraryResult';
  result: { '@type': 'smc.libraryEntry'; hash: string; data: string }[];
}

export interface ConfigApi {
  getConfigParam(p: AtSeqno & { configId: number }): Promise<ConfigInfo>;
  getConfigAll(p: AtSeqno): Promise<ConfigInfo>;
  getLibraries(p: { libraries: Buffer[] }): Promise<LibraryResult>;
}

/** Only a full answer is final: a missing library may still be published. */
const LIBRARIES: CachePolicy = {
  kind: 'immutable',
  keep: (v) => Array.isArray((v as { result?: unknown }).result) && (v as { result: unknown[] }).result.length > 0,
};

export const CONFIG: readonly V2Endpoint[] = [
  endpoint({
    name: 'getConfigParam',
    methods: READ,
    category: 'Configuration',
    summary: 'One blockchain config parameter (config_id, or its alias param)',
    // both fill configId and only config_id is sent on; the C++ variant names the value `param` in its bound's error
    params: {
      config_id: int32(),
      param: at(int32(), { field: 'configId', upstream: false, min: 0 }),
      seqno: seqnoAt(),
    },
    result: object('configInfo'),
    cache: atSeqnoOr(TTL_CACHE),
  }),
  endpoint({
    name: 'getConfigAll',
    methods: READ,
    category: 'Configuration',
    summary: 'The whole blockchain config',
    params: { seqno: seqnoAt() },
    result: object('configInfo'),
    cache: atSeqnoOr(TTL_CACHE),
  }),
  endpoint({
    name: 'getLibraries',
    methods: READ,
    category: 'Configuration',
    summary: 'Library cells by hash (repeat ?libraries= for several)',
    // a library is addressed by its own hash
    params: { libraries: list(hash()) },
    result: object('smc.libraryResult'),
    cache: LIBRARIES,
  }),
];
