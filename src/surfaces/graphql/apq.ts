/**
 * Automatic persisted queries, Apollo's protocol: a request may name its document by
 * `extensions.persistedQuery = { version: 1, sha256Hash }` instead of sending it. A hash the server has not seen
 * is answered `PersistedQueryNotFound` (code PERSISTED_QUERY_NOT_FOUND); the client then sends the document with
 * the hash once, the server checks the hash and keeps the document, and later requests (GET too, which CDNs can
 * cache) carry the hash alone. Documents are kept in a least-recently-used table bounded in entries and bytes,
 * and only once they have parsed and validated (every limit of the parse step included): a hash cannot be
 * registered for a document the server refuses, so distinct refused documents never reach the table.
 *
 * (@graphql-yoga/plugin-apq does the same but requires @graphql-tools/utils 10 while yoga 5.24 is on 11.)
 */
import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { ErrorCode } from './errors.js';
import { LIMITS } from './limits.js';

/** Documents kept at once; past it the least recently used go (a client then sends its document again). */
const MAX_DOCUMENTS = 2000;
/** Characters of the documents kept (plus a flat charge per entry for its hash and the table's node). */
export const APQ_CACHE_BYTES = 16 * 1024 * 1024;
const ENTRY_BYTES = 256;

const SHA256_HEX = /^[0-9a-f]{64}$/i;

function apqError(message: string, code: string, status: number): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status } } });
}

export function useAutomaticPersistedQueries(maxDocuments = MAX_DOCUMENTS, maxBytes = APQ_CACHE_BYTES): Plugin {
  const documents = new LRUCache<string, string>({
    max: maxDocuments,
    maxSize: maxBytes,
    sizeCalculation: (query) => ENTRY_BYTES + query.length,
  });
  /** a registering request's hash, from its checked parameters until its document has validated */
  const registering = new WeakMap<object, string>();

  return {
    onParams({ params, setParams, context }) {
      const persisted = (params.extensions as { persistedQuery?: unknown } | undefined)?.persistedQuery;
      if (persisted === undefined) return;
      const { version, sha256Hash } = (persisted ?? {}) as { version?: unknown; sha256Hash?: unknown };
      if (version !== 1) throw apqError('Unsupported persisted query version: only 1 is served', ErrorCode.BAD_USER_INPUT, 400);
      if (typeof sha256Hash !== 'string' || !SHA256_HEX.test(sha256Hash)) {
        throw apqError('persistedQuery.sha256Hash must be 64 hex digits', ErrorCode.BAD_USER_INPUT, 400);
      }
      const hash = sha256Hash.toLowerCase();
      if (typeof params.query !== 'string' || params.query === '') {
        const query = documents.get(hash);
        // 200, as Apollo's servers answer it: a cache may keep nothing from an answer the client is expected to retry
        if (query === undefined) throw apqError('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND', 200);
        setParams({ ...params, query });
        return;
      }
      // an over-long document is the limits plugin's to refuse; it is not kept
      if (params.query.length > LIMITS.maxQueryBytes) return;
      if (createHash('sha256').update(params.query, 'utf8').digest('hex') !== hash) {
        throw apqError('provided sha does not match query', ErrorCode.BAD_USER_INPUT, 400);
      }
      // kept once it has validated (below); yoga's operation context is this same server context object
      if (context) registering.set(context, hash);
    },
    onValidate({ context }) {
      const hash = registering.get(context);
      if (hash === undefined) return undefined;
      registering.delete(context);
      const query = (context as { params?: { query?: unknown } }).params?.query;
      return ({ valid }) => {
        if (valid && typeof query === 'string') documents.set(hash, query);
      };
    },
  };
}
