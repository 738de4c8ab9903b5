/** One row of the results table: a measured subject against its baseline from the same run. */
import type { LoadResult } from '../lib/load.js';

export interface Row {
  id: number;
  scenario: string;
  /** what the ratio compares, e.g. "req/s" or "round trips (fewer is better)" */
  metric: string;
  subject?: LoadResult | Record<string, number>;
  baseline?: LoadResult | Record<string, number>;
  /** subject / baseline, oriented so that higher is better */
  ratio?: number;
  /** absent for a row that only sets a figure beside another (no goal of its own) */
  target?: number;
  /** extra ratios (scenario 6 has two) */
  extra?: { metric: string; ratio: number; target: number }[];
  note?: string;
}

export interface RunOptions {
  quick: boolean;
  reps: number;
  /** seconds per autocannon run */
  durationS: number;
  /** directory for --cpu-prof output, when profiling */
  profDir?: string;
  log: (msg: string) => void;
}
