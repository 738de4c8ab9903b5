/**
 * What a data source supplies to the gateway: one record of what it can do (Capabilities: its v2 and v3 reads,
 * new blocks, live events, emulation, the local chain's control), whether it can answer now, and how to stop it.
 * A source is one folder under src/sources exporting a SourceKind (with its options: api/options.ts), plus one
 * line in src/sources/index.ts; the gateway wires any v2 source with any v3 source.
 *
 * A capability is declared once, here: a member of Capabilities and the line of CAPABILITY_FROM that says which
 * source it is taken from. The gateway hands the record on whole (Served) to the server, the REST surfaces and
 * every GraphQL request's context, so a new one touches this file, the source that provides it and the surface
 * that shows it.
 */
import type { Network } from '../model/network.js';
import type { SharedState } from '../shared-state/redis.js';
import type { StateAnswers } from './state-answers.js';
import type { EmulateApi, EmulateBounds } from './emulate.js';
import type { ChainEvents, EventLog, TipSource } from '../live/blocks.js';
import type { LiveHub } from '../live/hub.js';
import type { Webhooks } from '../live/webhooks/webhooks.js';
import type { LocalnetControl } from './localnet.js';
import type { ApiName, OptionFragment } from './options.js';
import type { LiveFeed } from '../live/feed.js';
import type { V2Api } from './v2.js';
import type { V3Api } from './v3/index.js';

export type { ApiName };

/** What a source cannot start from (a data directory another server holds): one line for the CLI, exit 2. */
export class SourceRefusal extends Error {}

/** What a source can do, one member per capability, each absent where it cannot. */
export interface Capabilities {
  /** toncenter's API v2; calls made before `start` has resolved may be refused with a 503 */
  readonly v2?: V2Api;
  /** toncenter's API v3 (indexed reads), likewise */
  readonly v3?: V3Api;
  /** Where its newest masterchain seqno comes from; asked once `start` has resolved, read with this source's v3. */
  readonly blocks?: (log?: EventLog) => TipSource;
  /** Its live events, in Streaming API v2's wire form; asked once `start` has resolved. */
  readonly live?: (log?: EventLog & { info(obj: object, msg: string): void }) => LiveFeed | undefined;
  /** The Emulate API v1 (api/emulate.ts) it answers with, asked per request: undefined while it is starting. */
  readonly emulate?: () => EmulateApi | undefined;
  /** The local chain's control (wallets, tokens, faucet, provenance): undefined until it is up. */
  readonly control?: () => LocalnetControl | undefined;
  /** Token rows from account states by get-methods run here (api/state-answers.ts): upstream mode's graph. */
  readonly stateAnswers?: () => StateAnswers;
}

/**
 * Which source each capability is taken from when v2 and v3 are served by different ones, the first that has it:
 * the reads from their interface's source, new blocks and live events from the v3 source (so they agree with its
 * reads), emulation from the v3 source before the v2 one, token rows from states from the v3 source alone (they
 * stand for its v3 reads).
 */
export const CAPABILITY_FROM: { readonly [K in keyof Capabilities]-?: readonly ApiName[] } = {
  v2: ['v2'],
  v3: ['v3'],
  blocks: ['v3'],
  live: ['v3'],
  emulate: ['v3', 'v2'],
  control: ['v2', 'v3'],
  stateAnswers: ['v3'],
};

/**
 * The capabilities as the gateway hands them to the server and every surface, whole: both reads always there,
 * new blocks and live events running (a BlockFeed over the v3 source's tip, the one LiveHub over its events),
 * every other member as its source gave it.
 */
export type Served = Omit<Capabilities, 'v2' | 'v3' | 'blocks' | 'live'> & {
  readonly v2: V2Api;
  readonly v3: V3Api;
  /** new masterchain blocks; undefined until the source is up */
  readonly blocks?: () => ChainEvents | undefined;
  /** the one live-event hub; undefined until the source is up, or when it has no live events */
  readonly live?: () => LiveHub | undefined;
  /** webhooks, a transport over that hub; undefined until it runs */
  readonly webhooks?: () => Webhooks | undefined;
};

export interface Source<Handles extends object = object> {
  /** What it can do; the gateway takes each capability from the source CAPABILITY_FROM names. */
  readonly capabilities: Capabilities;
  /** Brings the source up (the local chain runs its genesis); the gateway calls it once the server listens. */
  start(): Promise<void>;
  /** Whether the source has come up (for /health). */
  readonly ready: boolean;
  /** Why it cannot do its work although it came up (for /health), or null. */
  healthProblem(): string | null;
  /** Null when it can answer now, else what is wrong (for /ready; may ask the source). */
  check(): Promise<string | null>;
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
  /** the Emulate API's bounds, for a source that emulates */
  emulate?: EmulateBounds;
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
