/** Every data source by the name V2_SOURCE, V3_SOURCE and BACKEND use: one line per source. */
import type { SourceKind } from '../api/source.js';
import { localnetSource, type ExecutorPoolOptions } from './localnet/index.js';
import { upstreamSource } from './upstream/index.js';

const KINDS = {
  localnet: localnetSource,
  toncenter: upstreamSource,
};

export type SourceName = keyof typeof KINDS;

/** What the embedding code may tune in any source (tests and benchmarks; the CLI passes none). */
export interface SourceHooks {
  /** the local chain's emulator workers */
  executor?: ExecutorPoolOptions;
}

/** The sources as the gateway sees them: their settings are opaque, only compared and handed back. */
export const SOURCES: Record<SourceName, SourceKind<unknown, SourceHooks>> = KINDS;
