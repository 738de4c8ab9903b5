/**
 * GET /explorer: the explorer page and its bundled files (built by buildExplorer into dist/explorer-assets),
 * with a Content-Security-Policy that lets the page reach nothing but this origin.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { pagePolicy } from '../../pipeline/security-headers.js';
import { EXPLORER_ASSETS } from './assets.js';

// 'self' only: scripts, styles and the /graphql calls stay on the gateway; images may also be inline data
const CSP = pagePolicy();
// what esbuild writes: `app-<hash>.js` / `.css`; nothing with a path separator or a leading dot
const ASSET = /^[\w-]+\.(js|css)$/;
const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

export function registerExplorerRoutes(app: FastifyInstance, assetsDir: string = EXPLORER_ASSETS): void {
  const notBuilt = (reply: FastifyReply) =>
    reply.code(503).send({ code: 503, error: 'the explorer is not built: run `npm run build`' });

  const page = async (_req: unknown, reply: FastifyReply) => {
    let html: string;
    try {
      html = await readFile(join(assetsDir, 'index.html'), 'utf8');
    } catch {
      return notBuilt(reply);
    }
    return reply.header('content-security-policy', CSP).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  };
  app.get('/explorer', page);
  app.get('/explorer/', page);

  app.get<{ Params: { file: string } }>('/explorer/static/:file', async (req, reply) => {
    const match = ASSET.exec(req.params.file);
    if (!match) return reply.code(404).send({ code: 404, error: 'Not Found' });
    let body: Buffer;
    try {
      body = await readFile(join(assetsDir, req.params.file));
    } catch {
      return reply.code(404).send({ code: 404, error: 'Not Found' });
    }
    // names carry the content hash, so a file never changes under its name
    return reply.header('cache-control', 'public, max-age=31536000, immutable').type(TYPES[match[1]!]!).send(body);
  });
}
