/**
 * Webhooks started over a running live hub, kept where the deployment keeps things: in SQLite under the data
 * directory, else in memory (said at start).
 */
import type { LiveHub } from '../hub.js';
import type { WebhookLimits } from './spec.js';
import { MemoryStore } from './store.js';
import { SqliteStore } from './store-sqlite.js';
import { Webhooks, type WebhookLog } from './webhooks.js';

export interface WebhookSettings {
  hub: LiveHub;
  limits: WebhookLimits;
  allowPrivate: boolean;
  keyless: boolean;
  /** keep them in DIR/webhooks.db */
  dataDir?: string;
  log: WebhookLog;
}

export async function startWebhooks(s: WebhookSettings): Promise<Webhooks> {
  const { dataDir, ...rest } = s;
  return Webhooks.start({ ...rest, store: dataDir ? new SqliteStore(dataDir) : new MemoryStore() });
}
