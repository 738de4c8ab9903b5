/**
 * What a data source supplies to the gateway: a V2Api and/or a V3Api, its own new-block feed, whether it can
 * answer now, and how to stop it. A source is one folder under src/sources exporting a SourceKind from its
 * index (with its options: api/options.ts), plus one line in src/sources/index.ts; the gateway wires any v2
 * source with any v3 source.
 */
import type { Network } from '../model/network.js';
import type { SharedState } from '../shared-state/redis.js';
import type { StateAnswers } from './state-answers.js';
import type { EmulateApi } from './emulate.js';
import type { EventLog, TipSource } from '../live/blocks.js';
import type { LocalnetControl } from './localnet.js';
import type { ApiName, OptionFragment } from './options.js';
import type { StreamFeed } from '../live/feed.js';
import type { V2Api } from './v2.js';
import type { V3Api } from './v3/index.js';

export type { ApiName };

/** What a source cannot start from (a data directory another server holds): one line for the CLI, exit 2. */
export class SourceRefusal extends Error {}

export interface Source<Handles extends object = object> {
  /** Absent when the source has no v2; calls made before `start` has resolved may be refused with a 503. */
  readonly v2?: V2Api;
  readonly v3?: V3Api;
  /** Brings the source up (the local chain runs its genesis); the gateway calls it once the server listens. */
  start(): Promise<void>;
  /** Whether the source has come up (for /health). */
  readonly ready: boolean;
  /** Why it cannot do its work although it came up (for /health), or null. */
  healthProblem(): string | null;
  /** Null when it can answer now, else what is wrong (for /ready; may ask the source). */
  check(): Promise<string | null>;
  /** Where its newest masterchain seqno comes from; asked once `start` has resolved, read with this source's v3. */
  tip(log?: EventLog): TipSource;
  /** Its Streaming API v2 events, on a source that has them; asked once `start` has resolved. */
  streamFeed?(log?: EventLog & { info(obj: object, msg: string): void }): StreamFeed | undefined;
  /** The local chain's control routes (wallets, tokens, faucet), on a source that has them; undefined until up. */
  control?(): LocalnetControl | undefined;
  /**
   * The Emulate API v1 (api/emulate.ts) this source answers with, asked per request: undefined while it is
   * starting. Absent on a source that cannot emulate.
   */
  emulate?(): EmulateApi | undefined;
  /** Token rows from account states by get-methods run here (api/state-answers.ts); upstream mode only. */
  stateAnswers?(): StateAnswers;
  /** What the embedding code (tests, tools) may reach of it once started: the local chain, the upstream clients. */
  readonly handles: Handles;
  /** What to print on start-up about this source. */
  banner(url: string): string;
  close(): Promise<void>;
}

export interface SourceContext<Hooks> {
  /** the interfaces this instance is asked to serve */
  apis: ApiName[];
  /** Redis (REDIS_URL), for a source that shares state between replicas */
  shared?: SharedState;
  /** tuning the embedding code passes in (tests, benchmarks); the CLI passes none */
  hooks: Hooks;
}

/** The general options every source may read besides its own. */
export interface GeneralOptions {
  network: Network;
  /** Redis shared by replicas (REDIS_URL), for a source that shares state between them */
  redisUrl?: string;
}

export interface SourceKind<Settings, Hooks = object, Options extends object = object, Handles extends object = object> {
  /** its flags, variables, help lines and validation; their values are part of the Config (src/config.ts) */
  options: OptionFragment<Options>;
  /** What one instance needs to serve `api`; the gateway makes one instance for both when the two are equal. */
  settings(config: GeneralOptions & Options, api: ApiName): Settings;
  create(settings: Settings, context: SourceContext<Hooks>): Source<Handles>;
  /** Checks to make before anything listens (a data directory another server holds); throws what stops start-up. */
  preflight?(settings: Settings): Promise<void>;
}
