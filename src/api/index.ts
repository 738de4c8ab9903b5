export * from './errors.js';
export type * from './v2.js';
export type * from './localnet.js';
