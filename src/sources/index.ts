/**
 * Every data source by the name V2_SOURCE, V3_SOURCE and BACKEND use: one line per source. Its options, the
 * Config's share of them and what the gateway exposes of it all follow from that line.
 */
import type { OptionFragment } from '../api/options.js';
import type { Source, SourceKind } from '../api/source.js';
import type { ExecutorPoolOptions } from '../engine/executor-pool.js';
import { localnetSource } from './localnet/source.js';
import { upstreamSource } from './upstream/index.js';

const KINDS = {
  localnet: localnetSource,
  toncenter: upstreamSource,
};

export type SourceName = keyof typeof KINDS;

type Kinds = (typeof KINDS)[SourceName];
type AllOf<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The options of every source together, as they appear in the Config. */
export type SourceOptions = AllOf<Kinds extends { options: OptionFragment<infer O> } ? O : never>;

/** What the embedding code may reach of the sources once started, each present when a source of that kind runs. */
export type SourceHandles = Partial<AllOf<Kinds extends { create(...args: never[]): Source<infer H> } ? H : never>>;

/** What the embedding code may tune in any source (tests and benchmarks; the CLI passes none). */
export interface SourceHooks {
  /** the local chain's emulator workers */
  executor?: ExecutorPoolOptions;
}

/** The sources as the gateway sees them: their settings are opaque, only compared and handed back. */
export const SOURCES: Record<SourceName, SourceKind<unknown, SourceHooks, object, SourceHandles>> = KINDS;
