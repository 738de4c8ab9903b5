/**
 * One spelling of a request's path for every stage (Fastify's `rewriteUrl`, before routing and the first hook):
 * API keys, rate limits, metrics, logs, the GraphQL mount and the router all read the same path, so
 * `/%61pi/v2/…`, `/api//v2/…`, `/api/./v2/…` or `/x/../api/v2/…` are the same route under the same key check
 * as `/api/v2/…`.
 *
 * RFC 3986 §6.2.2 normalisation of the path only: percent-encoded unreserved characters (ALPHA DIGIT - . _ ~)
 * and `%2F` are decoded, runs of `/` merged, `.` and `..` segments removed (§5.2.4); an absolute-form target
 * (`http://host/path`, RFC 9112 §3.2.2) becomes its path and a fragment is dropped. The query is passed on
 * byte for byte, and any other escape in the path stays as it was (the router decodes it once, as before).
 * No route of the gateway has a parameter that may hold a `/`, which is why `%2F` can be decoded too.
 */

/** `scheme://authority` of an absolute-form request target. */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
const ESCAPE = /%([0-9A-Fa-f]{2})/g;

/** ALPHA, DIGIT, `-`, `.`, `_`, `~` (RFC 3986 §2.3) and `/`: the characters whose escape means the same as the character here. */
function decodesSafely(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x2d && code <= 0x39) || // - . / 0-9
    code === 0x5f ||
    code === 0x7e
  );
}

/** The request target with its path in the one spelling every stage reads; most targets are returned as they are. */
export function normalizeUrl(url: string): string {
  if (url.charCodeAt(0) !== 0x2f) {
    const scheme = ABSOLUTE_FORM.exec(url);
    // `*` (OPTIONS *) and other forms name no route; they are left to the router's 404
    if (!scheme) return url;
    url = url.slice(scheme[0].length);
    if (url === '' || url.charCodeAt(0) !== 0x2f) url = `/${url}`;
  }
  const end = pathEnd(url);
  if (end < 0) return url;
  const rest = url.charCodeAt(end) === 0x23 ? '' : url.slice(end);
  return canonicalPath(url.slice(0, end)) + rest;
}

/**
 * Where the path of a target ends (at `?` or `#`), or -1 when it is already canonical: no escape, no `//`, no
 * `.` segment, no fragment, which is the case for nearly every request and costs one scan of the path.
 */
function pathEnd(url: string): number {
  let canonical = true;
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x3f) return canonical ? -1 : i;
    if (c === 0x23) return i;
    if (c === 0x25) canonical = false;
    else if (c === 0x2f) {
      const next = url.charCodeAt(i + 1);
      if (next === 0x2f || next === 0x2e) canonical = false;
    }
  }
  return canonical ? -1 : url.length;
}

function canonicalPath(path: string): string {
  const decoded = path.replace(ESCAPE, (escape, hex: string) => {
    const code = parseInt(hex, 16);
    return decodesSafely(code) ? String.fromCharCode(code) : escape;
  });
  const segments = decoded.replace(/\/{2,}/g, '/').split('/');
  const out: string[] = [];
  // segments[0] is the empty text before the leading `/`
  for (let i = 1; i < segments.length; i++) {
    const s = segments[i]!;
    if (s !== '.' && s !== '..') {
      out.push(s);
      continue;
    }
    if (s === '..') out.pop();
    // `/a/.` and `/a/b/..` keep their trailing slash (RFC 3986 §5.2.4)
    if (i === segments.length - 1) out.push('');
  }
  return `/${out.join('/')}`;
}
