/**
 * Security headers for every HTML page the gateway serves, as one onSend stage keyed on the reply's content type
 * rather than per route, so a page added later gets them too. A page route states the Content-Security-Policy its
 * own scripts and styles need (pagePolicy); a page that states none gets the strictest (same-origin files only).
 * Every page is refused framing (frame-ancestors 'none' and X-Frame-Options DENY), sends no Referer and is not
 * sniffed; scripts and stylesheets are not sniffed either, so a browser runs them only as their declared type.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

type Directives = Record<string, string>;

/** What every page may do unless it says otherwise: load its own files, nothing inline, nothing from elsewhere. */
const BASE: Directives = {
  'default-src': "'self'",
  'script-src': "'self'",
  'style-src': "'self'",
  'img-src': "'self' data:",
  'connect-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'none'",
  'form-action': "'none'",
  'frame-ancestors': "'none'",
};

/** A page's policy: the base with the page's own directives replacing the base's; framing stays refused whatever they say. */
export function pagePolicy(own: Directives = {}): string {
  return Object.entries({ ...BASE, ...own, 'frame-ancestors': "'none'" })
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

/** The policy source for an inline script or style element with exactly this text. */
export const inlineHash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const DEFAULT_POLICY = pagePolicy();

/** A route's own policy with framing refused: frame-ancestors added when it lacks one, replaced when it allows any. */
function refuseFraming(policy: string): string {
  const kept = policy
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d !== '' && !/^frame-ancestors(\s|$)/i.test(d));
  return [...kept, "frame-ancestors 'none'"].join('; ');
}

const PAGE_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (_req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string') return done(null, payload);
    if (type.startsWith('text/html')) {
      const own = reply.getHeader('content-security-policy');
      reply.header('content-security-policy', typeof own === 'string' ? refuseFraming(own) : DEFAULT_POLICY);
      reply.headers(PAGE_HEADERS);
    } else if (type.startsWith('text/javascript') || type.startsWith('application/javascript') || type.startsWith('text/css')) {
      reply.header('x-content-type-options', 'nosniff');
    }
    done(null, payload);
  });
}
