/**
 * Strict parameters (issue 46). toncenter ignores a parameter it does not know (v3.md §1.2: gorilla/schema's
 * IgnoreUnknownKeys; the v2 servers, the Emulate and Streaming APIs likewise), so a misspelt filter answers an
 * unfiltered list. Every toncenter surface of this gateway refuses one instead, naming it and the nearest name the
 * route knows, and refuses a single-valued parameter given twice. `--lenient-params` (LENIENT_PARAMS) or a
 * request's `X-Lenient-Params: 1` restores toncenter's ignoring. Each surface says which names it knows and
 * answers the text here in its own envelope, with 422.
 */
import { distance as editDistance } from 'fastest-levenshtein';

/** The request header asking for toncenter's ignoring of unknown and repeated parameters. */
export const LENIENT_HEADER = 'x-lenient-params';

/** What toncenter's API gateway reads on every surface, and so never an unknown parameter: the API key (v2.md §10). */
export const API_KEY_PARAM = 'api_key';
export const ONLY_API_KEY: ReadonlySet<string> = new Set([API_KEY_PARAM]);
export const NO_NAMES: ReadonlySet<string> = new Set();

/** Whether one request asked for leniency: `1` or `true` (any case) in X-Lenient-Params. */
export function lenientRequested(header: string | string[] | undefined): boolean {
  const v = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  return v === '1' || v === 'true';
}

/** Far enough apart that suggesting one for the other would mislead: over a third of the longer name, and over 2. */
const tooFar = (given: string, known: string, distance: number): boolean =>
  distance > Math.max(2, Math.floor(Math.max(given.length, known.length) / 3));

const firstWord = (name: string): string => name.split(/[_.]/, 1)[0]!.toLowerCase();

/**
 * The known name a client most likely meant: the nearest by edit distance when it is near, else the nearest of
 * those sharing the given name's first word (`owner_id` → `owner_address`, `jetton_master` → `jetton_address`,
 * the misspellings that cost vultisig's users, v3.md §8).
 */
export function nearestName(given: string, known: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  let sameWord: { name: string; distance: number } | undefined;
  const word = firstWord(given);
  for (const name of known) {
    const distance = editDistance(given.toLowerCase(), name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
    if (word.length > 1 && firstWord(name) === word && (!sameWord || distance < sameWord.distance)) sameWord = { name, distance };
  }
  if (best && !tooFar(given, best.name, best.distance)) return best.name;
  return sameWord?.name;
}

const quoted = (name: string): string => `\`${name}\``;

/** Known names past which the refusal stops listing them. */
const LISTED = 30;

/** The refusal of an unknown parameter: its name, and the name meant, or else what the route takes. */
export function unknownParamMessage(given: string, known: readonly string[]): string {
  const meant = nearestName(given, known);
  if (meant !== undefined) return `unknown parameter ${quoted(given)}; did you mean ${quoted(meant)}?`;
  if (known.length === 0) return `unknown parameter ${quoted(given)}; this route takes none`;
  const listed = known.slice(0, LISTED).map(quoted).join(', ');
  return `unknown parameter ${quoted(given)}; this route takes ${listed}${known.length > LISTED ? ', …' : ''}`;
}

/** The refusal of a single-valued parameter given more than once. */
export const repeatedParamMessage = (name: string): string => `parameter ${quoted(name)} is given more than once; this route takes one value`;

/** The refusal of a body member sent in the query of a POST, which reads only its body. */
export const misplacedParamMessage = (name: string): string =>
  `parameter ${quoted(name)} is read from the JSON body of this POST request, not from its query`;

/**
 * The first problem of a request's parameter names, or undefined: a name outside `known` (after `ignored`, which
 * toncenter reads elsewhere; a name of `body` is said to belong there), else a name given more than once that is
 * not in `lists`. `given` pairs each name with how many times it came.
 */
export function paramProblem(
  given: Iterable<readonly [string, number]>,
  known: ReadonlySet<string>,
  opts: { lists?: ReadonlySet<string>; ignored?: ReadonlySet<string>; body?: ReadonlySet<string> } = {},
): string | undefined {
  let repeated: string | undefined;
  for (const [name, count] of given) {
    if (opts.ignored?.has(name)) continue;
    if (opts.body?.has(name) && !known.has(name)) return misplacedParamMessage(name);
    if (!known.has(name)) return unknownParamMessage(name, [...known, ...(opts.body ?? [])]);
    if (count > 1 && repeated === undefined && !opts.lists?.has(name)) repeated = name;
  }
  return repeated === undefined ? undefined : repeatedParamMessage(repeated);
}

/** The names of a URL's query, each with how many times it came. */
export function queryNames(url: string): [string, number][] {
  const i = url.indexOf('?');
  if (i < 0) return [];
  const counts = new Map<string, number>();
  for (const name of new URLSearchParams(url.slice(i + 1)).keys()) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts];
}

/** Names with how many times each came, from a decoded query (name → values). */
export const countsOf = (query: ReadonlyMap<string, readonly unknown[]>): [string, number][] =>
  [...query].map(([name, values]) => [name, values.length]);

/** A JSON object's member names, each once (JSON.parse keeps the last of a repeated member). */
export const membersOf = (body: Record<string, unknown>): [string, number][] => Object.keys(body).map((name) => [name, 1]);
