/**
 * The v2 seam: one method per toncenter API v2 endpoint (../shared/reference/v2.md, C++ variant 2.1.x), one
 * descriptor file per endpoint group under v2/ (wire types, parameters, result shape, cache policy).
 *
 * Parameters arrive already validated and parsed by the surface (addresses as @ton/core Address,
 * hashes as 32-byte Buffers, int64 values as bigint). Results are the exact JSON shapes toncenter
 * puts in `result`, `@type` included, so a surface serialises them as they are.
 */
import { ACCOUNTS, type AccountsApi } from './v2/accounts.js';
import { BLOCKS, type BlocksApi } from './v2/blocks.js';
import { CONFIG, type ConfigApi } from './v2/config.js';
import type { V2Endpoint } from './v2/endpoint.js';
import type { SharedAnswers } from './shared-answers.js';
import { RUN_GET_METHOD, type RunGetMethodApi } from './v2/run-get-method.js';
import { SEND, type SendApi } from './v2/send.js';
import { TRANSACTIONS, type TransactionsApi } from './v2/transactions.js';
import { UTILS, type UtilsApi } from './v2/utils.js';

export type * from './v2/accounts.js';
export type * from './v2/blocks.js';
export type * from './v2/config.js';
export type * from './v2/objects.js';
export type * from './v2/run-get-method.js';
export type * from './v2/send.js';
export type * from './v2/transactions.js';
export type * from './v2/utils.js';
export type { V2Endpoint } from './v2/endpoint.js';

/** The v2 interface as a data source answers it. */
export interface V2Methods extends AccountsApi, BlocksApi, TransactionsApi, SendApi, RunGetMethodApi, UtilsApi, ConfigApi {}

/** The v2 interface as a data source answers it; answers are shared and read-only. */
export type V2Api = SharedAnswers<V2Methods>;

/** Every v2 endpoint (service-spec.md "v2 endpoint list", v2.md §4), in the reference's order. */
export const V2_ENDPOINTS: readonly V2Endpoint[] = [...ACCOUNTS, ...BLOCKS, ...TRANSACTIONS, ...SEND, ...RUN_GET_METHOD, ...UTILS, ...CONFIG];
