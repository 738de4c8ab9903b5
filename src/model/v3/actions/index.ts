/** The action classifier (v3.md §4): the algorithm in ./classify.ts, one matcher file per protocol, ./registry.ts. */
export { actionId, classifyTrace, storeOrder, traceBlocks, type ClassifiedAction, type ContractInfo, type MessageOrder, type NftSaleInfo } from './classify.js';
export type { Block } from './block.js';
