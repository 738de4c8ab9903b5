/**
 * Where webhooks are kept: in memory (nothing survives a restart), in SQLite under the data directory
 * (store-sqlite.ts), or in Redis when replicas share one (store-redis.ts). Each keeps the webhooks, their delivery
 * state (written as delivery goes: the cursor moves on every acknowledged event) and each one's newest deliveries.
 */
import type { DeliveryEntry, WebhookProgress, WebhookRecord } from './spec.js';

/** A lease (its key) a write must still be under, and who must hold it. */
export interface Fence {
  key: string;
  holder: string;
}

export interface WebhookStore {
  /** `memory`, `sqlite DIR/webhooks.db` or `redis`, for the start-up line */
  readonly description: string;
  /** whether other processes change it too (then a read asks it, not this process's copy) */
  readonly shared: boolean;
  all(): Promise<WebhookRecord[]>;
  get(id: string): Promise<WebhookRecord | undefined>;
  /** Writes a webhook whole (made, or changed by its owner). */
  put(record: WebhookRecord): Promise<void>;
  remove(id: string): Promise<void>;
  /**
   * Writes delivery state, each only where the webhook is still at revision `rev` (an owner's change since
   * wins); `fence` names the lease a shared store also requires to be held.
   */
  progress(updates: readonly { id: string; rev: number; progress: WebhookProgress; fence?: Fence }[]): Promise<void>;
  /** Adds attempts to webhooks' delivery logs, each kept to its newest `keep`. */
  logDeliveries(entries: readonly { id: string; entry: DeliveryEntry }[], keep: number): Promise<void>;
  /** The newest `limit` attempts, newest first. */
  deliveries(id: string, limit: number): Promise<DeliveryEntry[]>;
  close(): Promise<void>;
}

/** Nothing kept past the process. */
export class MemoryStore implements WebhookStore {
  readonly description = 'memory';
  readonly shared = false;
  private readonly records = new Map<string, WebhookRecord>();
  private readonly logs = new Map<string, DeliveryEntry[]>();

  async all(): Promise<WebhookRecord[]> {
    return [...this.records.values()];
  }

  async get(id: string): Promise<WebhookRecord | undefined> {
    return this.records.get(id);
  }

  async put(record: WebhookRecord): Promise<void> {
    this.records.set(record.id, record);
  }

  async remove(id: string): Promise<void> {
    this.records.delete(id);
    this.logs.delete(id);
  }

  async progress(updates: readonly { id: string; rev: number; progress: WebhookProgress }[]): Promise<void> {
    for (const { id, rev, progress } of updates) {
      const r = this.records.get(id);
      if (r && r.rev === rev) this.records.set(id, { ...r, ...progress });
    }
  }

  async logDeliveries(entries: readonly { id: string; entry: DeliveryEntry }[], keep: number): Promise<void> {
    for (const { id, entry } of entries) {
      if (!this.records.has(id)) continue;
      let log = this.logs.get(id);
      if (!log) this.logs.set(id, (log = []));
      log.push(entry);
      if (log.length > keep) log.splice(0, log.length - keep);
    }
  }

  async deliveries(id: string, limit: number): Promise<DeliveryEntry[]> {
    return (this.logs.get(id) ?? []).slice(-limit).reverse();
  }

  async close(): Promise<void> {}
}
