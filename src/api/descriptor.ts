/**
 * The descriptor kit: one record per v3 route and per v2 endpoint, read alike by the REST mount (parsing and
 * validation), the OpenAPI generator and the upstream client (building the call), so a parameter is declared
 * once. Each API supplies its own readers (v3 converts query text the gorilla/schema way, v2 reads query text
 * or JSON values the C++ way); the kit only fixes what a declaration and a descriptor hold.
 */

/** How the upstream cache may keep an answer: never, for good once `keep` agrees, or for the configured TTL. */
export type CachePolicy = { kind: 'none' } | { kind: 'immutable'; keep?: (value: unknown) => boolean } | { kind: 'ttl' };

export const NO_CACHE: CachePolicy = { kind: 'none' };
export const TTL_CACHE: CachePolicy = { kind: 'ttl' };

/** Where a parameter travels: the query string, the JSON body (POST and JSON-RPC), or both (v2 read methods). */
export type ParamPlace = 'query' | 'body' | 'any';

/**
 * One parameter, declared once. The wire name is the key of the descriptor's `params` record; `R` is the
 * API's reader (the v3 query converter, the v2 query/body reader), `T` the value the seam receives.
 */
export interface ParamSpec<T = unknown, R = unknown> {
  /** the property of the seam's params object; default: the wire name in camelCase */
  readonly field?: string;
  /** false: read by the surface only (a legacy alias folded into another param), never sent upstream */
  readonly upstream?: false;
  readonly in: ParamPlace;
  /** how the surface reads the raw value */
  readonly reader: R;
  /** the type name the OpenAPI generator prints */
  readonly kind: string;
  /** repeatable in a query (`?k=a&k=b`), an array in a body */
  readonly list: boolean;
  readonly required: boolean;
  /** what the seam gets when the value is absent (an array for a list; also printed in the OpenAPI) */
  readonly default?: unknown;
  /** the upstream applies the same default: an upstream is not sent the value when it equals it (v3 `sort`) */
  readonly upstreamDefault?: true;
  /** inclusive numeric bounds, printed in the OpenAPI; the reader or `check` enforces them */
  readonly min?: number;
  readonly max?: number;
  readonly description?: string;
  /** a rule run after every parameter was read, in declaration order; returns the value the seam gets */
  readonly check?: (value: any) => unknown;
  /** run `check` after the descriptor's own `check` (the reference's query-builder rules: limit, then sort) */
  readonly late?: boolean;
  /** the value written on the wire when an upstream is asked (query values are stringified); default String() */
  readonly encode?: (value: T) => unknown;
}

export type ParamSpecs = Record<string, ParamSpec<any, any>>;

export type HttpMethod = 'GET' | 'POST';

/**
 * One route or endpoint: what is mounted where, what it reads, what it answers, how an upstream answer may be
 * cached, and which method of the seam (`Api`) it calls with the params object built from `params`.
 */
export interface Descriptor<Api = unknown, P extends ParamSpecs = ParamSpecs> {
  readonly methods: readonly HttpMethod[];
  /** under the API's prefix */
  readonly path: string;
  /** further paths answering the same (undocumented, or JSON-RPC names) */
  readonly aliases?: readonly string[];
  readonly summary: string;
  /** the OpenAPI tag */
  readonly category?: string;
  readonly params: P;
  /** POST bodies: the request struct's name (used in type-error messages and in the OpenAPI) */
  readonly bodyStruct?: string;
  /** the OpenAPI schema of the 200 answer as this surface sends it */
  readonly response: string;
  /** the answer's top-level list member, which an upstream answer must hold (`'[]'`: the answer is an array) */
  readonly top?: string;
  /** how an upstream answer may be cached, given the seam's params */
  readonly cache: CachePolicy | ((params: any) => CachePolicy);
  /** false when repeating the call could repeat an effect (sending a message) */
  readonly idempotent?: boolean;
  /** the seam method called */
  readonly api: keyof Api & string;
  /** the seam takes request options (v3 X-No-Address-Book / X-No-Metadata); false: the answer is kept as asked */
  readonly options?: boolean;
  /** cross-parameter rules on the seam's params object: after the params' own checks, before the `late` ones */
  readonly check?: (params: any) => void;
  /** cross-parameter rules run last */
  readonly lateCheck?: (params: any) => void;
  /** seam params this route sets whatever was asked */
  readonly fixed?: Record<string, unknown>;
  /** the seam's answer as this route sends it, when it differs */
  readonly answer?: (value: any) => unknown;
  /** false: another descriptor of the same seam method is the one an upstream is asked through */
  readonly upstream?: false;
}

/** Declares a descriptor, keeping its params' types for the caller while storing it in a plain list. */
export const descriptor = <Api, P extends ParamSpecs>(d: Descriptor<Api, P>): Descriptor<Api> => d as unknown as Descriptor<Api>;

/** The cache policy of one call. */
export const cachePolicyOf = <Api>(d: Descriptor<Api>, params: Record<string, unknown>): CachePolicy =>
  typeof d.cache === 'function' ? d.cache(params) : d.cache;

/**
 * The wire form of a seam params object, for an upstream call: each declared param that has a value there,
 * under its wire name, through its encoder; lists stay arrays. Undefined values are left out.
 */
export function wireValues<Api>(d: Descriptor<Api>, params: Record<string, unknown>): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [wire, spec] of Object.entries(d.params)) {
    if (spec.upstream === false) continue;
    const value = valueAt(params, fieldOf(wire, spec));
    if (value === undefined || (spec.upstreamDefault && value === spec.default)) continue;
    const encode = (v: unknown) => (spec.encode ? spec.encode(v) : v);
    out.push([wire, Array.isArray(value) && spec.list ? value.map(encode) : encode(value)]);
  }
  return out;
}

/** A seam property; a dotted field reaches into a nested object (v2's `after.lt`). */
export const valueAt = (params: Record<string, unknown>, field: string): unknown =>
  field.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], params);

/** snake_case wire names as camelCase fields, worked out once per name (the descriptors name a fixed set) */
const camelCase = new Map<string, string>();

/** The seam property a wire param fills. */
export const fieldOf = (wire: string, spec: ParamSpec): string => {
  if (spec.field !== undefined) return spec.field;
  let field = camelCase.get(wire);
  if (field === undefined) camelCase.set(wire, (field = wire.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())));
  return field;
};

/** Every path the descriptor answers on. */
export const pathsOf = <Api>(d: Descriptor<Api>): string[] => [d.path, ...(d.aliases ?? [])];
