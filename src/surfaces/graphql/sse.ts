/**
 * graphql-sse's single-connection mode on /graphql (@graphql-yoga/plugin-graphql-sse): `PUT` reserves a stream
 * and answers its token, `GET` with the token (header `X-GraphQL-Event-Stream-Token` or `?token=`) opens it,
 * operations are `POST`ed with the token and stream into it, `DELETE ?operationId=` cancels one. Requests
 * without a token (and not PUT) are the ordinary transports, which yoga answers itself (graphql-sse's
 * "distinct connections" mode is plain SSE).
 *
 * graphql-sse keeps a reservation until its stream is opened; here one never opened is released after
 * `RESERVATION_TTL_MS`, and at most `MAX_RESERVATIONS` wait at once, so PUTs alone cannot grow memory; an
 * operation sent into a reservation not opened yet is refused (409), as graphql-sse would hold its answers unbounded.
 * An open stream's unread bytes are bounded where it is sent (stream-bound.ts).
 */
import { randomUUID } from 'node:crypto';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import type { Plugin } from 'graphql-yoga';
import type { ServerContext } from './fast-path.js';

const TOKEN_HEADER = 'x-graphql-event-stream-token';
const RESERVATION_TTL_MS = 30_000;
const MAX_RESERVATIONS = 10_000;

export function useGraphQLSSESingleConnection(endpoint: string, ttlMs = RESERVATION_TTL_MS): Plugin {
  const sse = useGraphQLSSE({ endpoint });
  /** reservations not opened yet, with the timer that releases them */
  const waiting = new Map<string, NodeJS.Timeout>();
  let release: (token: string) => void = () => undefined;

  return {
    onYogaInit(payload) {
      sse.onYogaInit!(payload);
      const { fetchAPI } = payload.yoga;
      // graphql-sse drops a reservation when its stream ends: open it and cancel at once
      release = (token) => {
        const headers = { accept: 'text/event-stream', [TOKEN_HEADER]: token };
        const request = new fetchAPI.Request(`http://localhost${endpoint}`, { headers });
        void sse.onRequest!({
          request,
          url: new URL(request.url),
          serverContext: {},
          fetchAPI,
          endResponse: (response: Response) => void response.body?.cancel(),
        } as unknown as Parameters<NonNullable<typeof sse.onRequest>>[0]);
      };
    },
    onRequest(payload) {
      const { request, url, fetchAPI } = payload;
      let token = request.headers.get(TOKEN_HEADER) ?? url.searchParams.get('token');
      if (request.method !== 'PUT' && token === null) return;
      if (request.method === 'PUT') {
        if (waiting.size >= MAX_RESERVATIONS) {
          const message = 'Too many stream reservations waiting to be opened';
          const body = JSON.stringify({ errors: [{ message, extensions: { code: 'SERVICE_UNAVAILABLE' } }] });
          const headers = { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' };
          return payload.endResponse(new fetchAPI.Response(body, { status: 503, headers }));
        }
        let reservation = request;
        if (token === null) {
          // the token is chosen here, so the reservation can be released if it is never opened
          token = randomUUID();
          const headers = new fetchAPI.Headers(request.headers);
          headers.set(TOKEN_HEADER, token);
          reservation = new fetchAPI.Request(request.url, { method: 'PUT', headers });
        }
        const reserved = token;
        return sse.onRequest!({
          ...payload,
          request: reservation,
          endResponse: (response: Response) => {
            if (response.status === 201 && !waiting.has(reserved)) {
              const timer = setTimeout(() => {
                waiting.delete(reserved);
                release(reserved);
              }, ttlMs);
              timer.unref();
              waiting.set(reserved, timer);
            }
            payload.endResponse(response);
          },
        });
      }
      if (request.method === 'GET' && token !== null) {
        clearTimeout(waiting.get(token));
        waiting.delete(token);
      }
      // graphql-sse would keep the answers of a stream nobody opened, with no bound; its own client opens first
      if (request.method === 'POST' && token !== null && waiting.has(token)) {
        const message = 'The stream is reserved but not open: open it (GET with its token) before sending operations into it';
        const body = JSON.stringify({ errors: [{ message, extensions: { code: 'STREAM_NOT_OPEN' } }] });
        return payload.endResponse(new fetchAPI.Response(body, { status: 409, headers: { 'content-type': 'application/json; charset=utf-8' } }));
      }
      // an operation of this mode streams into the reserved stream, not into the response of the request that started it
      delete (payload.serverContext as Partial<ServerContext>).reply;
      return sse.onRequest!(payload);
    },
  };
}
