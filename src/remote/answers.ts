/**
 * Upstream mode's shortcut for repeated REST requests. When a v3 GET route answers with an untouched upstream
 * answer that the response cache holds (a finalised transaction, message or block), the exact request (its
 * URL and the option headers) becomes an alias of that cache entry. The same request again is then answered
 * with the entry's text before its query is parsed, the upstream call is described or anything is serialised.
 *
 * This gives what the full path would give, because a route's answer is a function of the request alone: a
 * route reads its query, the option headers and the headers it asks for by name, and calls the data source
 * with what it read (no clock, no randomness). An alias is therefore only made when the route asked for no
 * header and made exactly one data-source call, whose answer it passed on untouched; and it lives only as
 * long as the cache entry (same LRU, same size bound, same expiry; Redis is not consulted).
 */
import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { preSerialized, type AnswerShortcut } from '../api/raw-answer.js';
import type { ApiName, UpstreamClient } from './client.js';
import { cachedAs } from './shared-json.js';

/** SHA-256, base64; crypto.hash (Node 20.12+) skips the Hash object. */
const digest: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'base64')
    : (text) => crypto.createHash('sha256').update(text).digest('base64');

/** Whether a query parameter's name could be `api_key`: it mentions `key` in any case, or is percent-encoded. */
function mayHoldKey(url: string): boolean {
  const q = url.indexOf('?');
  if (q < 0) return false;
  for (const part of url.slice(q + 1).split('&')) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    if (name.includes('%') || /key/i.test(name)) return true;
  }
  return false;
}

/** The headers every v3 route reads (optionsOf in src/surfaces/rest/v3.ts); other headers are read only on request. */
const OPTION_HEADERS = ['x-no-address-book', 'x-no-metadata'] as const;

export class RequestAnswers implements AnswerShortcut {
  constructor(
    private readonly client: UpstreamClient,
    private readonly api: ApiName,
  ) {}

  /**
   * The alias of a request: its URL (path and query as sent) and the option headers as sent. When the query
   * may hold an API key (`api_key`, perhaps percent-encoded), a digest of that instead: keys are kept nowhere.
   */
  aliasOf(url: string, headers: IncomingHttpHeaders): string {
    let request = `${this.api} ${url}`;
    for (const h of OPTION_HEADERS) {
      const v = headers[h];
      if (v !== undefined) request += `\n${h}: ${Array.isArray(v) ? JSON.stringify(v) : v}`;
    }
    // a digest has no space, the plain form always does: the two never meet
    return mayHoldKey(url) ? digest(request) : request;
  }

  /** The answer's JSON text, if this exact request was answered from an entry the cache still holds. */
  lookup(alias: string): string | undefined {
    return this.client.cachedByAlias(this.api, alias)?.json;
  }

  /** A data source that counts the calls made through it, for one request's run of its route. */
  track<T extends object>(source: T): { source: T; calls(): number } {
    let calls = 0;
    const counted = new Proxy(source, {
      get(target, key, receiver) {
        const member = Reflect.get(target, key, receiver) as unknown;
        if (typeof member !== 'function') return member;
        return (...args: unknown[]) => {
          calls++;
          return (member as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    return { source: counted, calls: () => calls };
  }

  /** After a run: makes `alias` find the answer, if the run qualifies (see above). */
  remember(alias: string, result: unknown, calls: number, readHeaders: boolean): void {
    if (calls !== 1 || readHeaders || preSerialized(result) === undefined) return;
    const key = cachedAs(result);
    if (key !== undefined) this.client.alias(alias, key);
  }
}

