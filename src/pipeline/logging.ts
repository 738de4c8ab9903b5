/** Logger options for the Fastify app (pino): level, request ids and redaction of API keys. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { DestinationStream, LoggerOptions } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogOptions {
  /** default 'silent', so embedded and test servers stay quiet unless asked */
  level?: LogLevel;
  /** where JSON lines go; default stdout */
  stream?: DestinationStream;
}

export const REQUEST_ID_HEADER = 'x-request-id';
/** An incoming id is reused only when it is short and plain, so it cannot forge log lines or headers. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function isLogLevel(v: string): v is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(v);
}

/** The request's id: the client's X-Request-Id when well formed, else a fresh UUID. */
export function genReqId(req: IncomingMessage): string {
  const h = req.headers[REQUEST_ID_HEADER];
  const given = Array.isArray(h) ? h[0] : h;
  return given && WELL_FORMED_ID.test(given) ? given : randomUUID();
}

/** The URL with the value of every `api_key` query parameter replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => (/^api_key(=|$)/i.test(part) || /^api%5fkey(=|$)/i.test(part) ? 'api_key=[Redacted]' : part))
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/** The `logger` option of Fastify: pino with the level, the stream and no key in any line. */
export function loggerOptions(opts: LogOptions = {}): LoggerOptions & { stream?: DestinationStream } {
  return {
    level: opts.level ?? 'silent',
    ...(opts.stream ? { stream: opts.stream } : {}),
    // headers are not logged by the serializer below; the redaction guards any later `req.headers` logging
    redact: {
      paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'headers["x-api-key"]', 'headers.authorization'],
      censor: '[Redacted]',
    },
    serializers: {
      req(req: FastifyRequest) {
        return {
          method: req.method,
          url: redactUrl(req.url),
          // the target as sent, when it spelled the path another way (request-path.ts)
          ...(req.originalUrl !== req.url ? { originalUrl: redactUrl(req.originalUrl) } : {}),
          host: req.host,
          remoteAddress: req.ip,
        };
      },
    },
  };
}
