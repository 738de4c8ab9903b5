/**
 * The local chain's indexer: contracts (with token events), traces (with their actions) and messages, each
 * fed by the chain's sealed blocks. One indexer per chain store, shared by every v3 answer over that chain.
 */
import type { V2Api } from '../../../api/v2.js';
import type { ChainStore } from '../chain/store.js';
import { ContractIndex } from './contracts.js';
import { MessageIndex } from './messages.js';
import { TraceIndex, type StateGetMethod } from './traces.js';

export class Indexer {
  readonly messages: MessageIndex;
  readonly traces: TraceIndex;
  private contractIndex?: ContractIndex;

  constructor(
    private readonly store: ChainStore,
    private readonly v2: V2Api,
    onState?: StateGetMethod,
  ) {
    this.messages = new MessageIndex(store);
    this.traces = new TraceIndex(store, v2, onState);
  }

  /** Resolves once the contract index (if started) has read what the chain holds now. */
  async settled(): Promise<void> {
    await this.contractIndex?.sync();
  }

  /** Started by the first answer that needs it: it runs get-methods over every account of the chain. */
  get contracts(): ContractIndex {
    this.contractIndex ??= new ContractIndex(this.store, this.v2);
    return this.contractIndex;
  }
}

const indexers = new WeakMap<ChainStore, Indexer>();

/** Resolves once the indexer of a chain's store (if one was made) has caught up with it. */
export async function settledIndexer(store: ChainStore): Promise<void> {
  await indexers.get(store)?.settled();
}

/**
 * The indexer of a chain's store, made on first use; get-methods run through `v2` of that first caller, and on
 * pending states through its `onState` (without one, a pending trace is classified with the sealed states).
 */
export function indexerOf(store: ChainStore, v2: V2Api, onState?: StateGetMethod): Indexer {
  let indexer = indexers.get(store);
  if (!indexer) indexers.set(store, (indexer = new Indexer(store, v2, onState)));
  return indexer;
}
