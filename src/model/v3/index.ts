/** v3 serializers: pure functions from @ton/core objects (and the indexer's context) to v3 JSON. */
export * from './common.js';
export * from './message.js';
export * from './transaction.js';
export * from './account.js';
export * from './address-book.js';
export * from './block.js';
export * from './interfaces.js';
export * from './tokens.js';
export * from './action-types.js';
export * from './actions/index.js';
export * from './trace.js';
export * from './balance-changes.js';
