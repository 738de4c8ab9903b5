/**
 * The options a source owns: its flags, environment names, defaults, help lines and validation, in one
 * fragment the source folder exports. `src/config.ts` composes the fragments of every source in
 * `src/sources/index.ts` with the general server options into one `Config`.
 */
import { z } from 'zod';
import type { Network } from '../model/network.js';

/** The interfaces a source may serve. */
export type ApiName = 'v2' | 'v3';

/** A bad option value: one readable line naming the flag's variable, never a stack trace. */
export class ConfigError extends Error {}

/** How the options are read: the flag, else the environment variable, else the default. */
export interface OptionReader {
  /** the flag's value, else the variable's, else `dflt` */
  pick(flag: string, envName: string, dflt: string): string;
  /** whether the flag or the variable is set at all */
  given(flag: string, envName: string): boolean;
  /** NETWORK when it names a network, else testnet (an unknown one is reported by the general options) */
  network: Network;
  /** the base address V2_SOURCE / V3_SOURCE gave, for the source that takes addresses (`takesAddress`) */
  addresses: Partial<Record<ApiName, string>>;
  /** whether the source reading its options answers an interface (a flag only it uses may be refused when not) */
  chosen: boolean;
}

export interface OptionFragment<Options extends object> {
  /** long flag name -> its kind, as node:util parseArgs takes them */
  flags: Record<string, { type: 'string' | 'boolean' }>;
  /** what its section of --help is headed with after the source's name, e.g. "upstream mode" */
  title: string;
  /** its section of --help: whole lines, each ending with a newline */
  usage: string;
  /** the raw values (strings, mostly) the schema checks; may throw ConfigError for what spans several options */
  read(reader: OptionReader): unknown;
  /** checks and converts what `read` gave; each message names the flag's variable */
  schema: z.ZodType<Options>;
  /** V2_SOURCE / V3_SOURCE may name this source by a base address (one source at most says so) */
  takesAddress?: boolean;
  /** KEYLESS_RPS's default when this source answers an interface (the largest among the chosen wins; else 0) */
  keylessRps?: number;
}

/** A whole number within bounds, from a string; each message names `name`. */
export const intIn = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be a whole number` })
    .min(min, { error: `${name} must be at least ${min}` })
    .max(max, { error: `${name} must be at most ${max}` });

/** http(s) base address without query or fragment; a trailing slash is dropped so paths append cleanly. */
export const baseUrl = (name: string) =>
  z.string().transform((v, ctx) => {
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      ctx.addIssue({ code: 'custom', message: `${name} must be an http(s) URL` });
      return z.NEVER;
    }
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.search || u.hash) {
      ctx.addIssue({ code: 'custom', message: `${name} must be an http(s) URL without query or fragment` });
      return z.NEVER;
    }
    return v.replace(/\/+$/, '');
  });

/** An empty flag or variable means "not set". */
export const optional = (v: string): string | undefined => (v === '' ? undefined : v);

/** Every flag of `names` as a string flag. */
export const stringFlags = (...names: string[]): Record<string, { type: 'string' }> =>
  Object.fromEntries(names.map((n) => [n, { type: 'string' as const }]));
