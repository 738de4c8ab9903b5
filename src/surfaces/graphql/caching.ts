/**
 * HTTP caching that knows finality. An answer that reads only final data — a block by seqno, a transaction by
 * hash, a message by hash, and what of them can never change — may be kept by browsers and CDNs for good:
 * `Cache-Control: public, max-age=31536000, immutable` with an ETag (a matching `If-None-Match` gets 304).
 * Everything else (the chain's tip, account state, open-ended lists, traces still growing, mutations,
 * subscriptions, errors, a block or transaction not there yet) is `no-store`.
 *
 * On the local chain (whose workbench can undo any block: acton's checkpoints, a reset) every answer is no-store.
 *
 * The verdict is per operation, from the fields it reads: an allow-list of the fields whose value is fixed once
 * their parent exists. A field not listed (one added later included) makes the answer uncacheable, so the
 * list can only err on the side of not caching.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  TypeInfo,
  getNamedType,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const NO_STORE = 'no-store';

/** Types whose every field is fixed once the object exists. */
const FINAL_TYPES = new Set([
  'Block',
  'TransactionDescription',
  'StoragePhase',
  'CreditPhase',
  'ComputePhase',
  'ActionPhase',
  'BouncePhase',
  'MsgSize',
  'AccountStateSnapshot',
  // only reachable here through Block.transactions: a block's transactions are fixed
  'TransactionConnection',
  'TransactionEdge',
  'PageInfo',
]);

/** Fields fixed once their parent exists, on types that also have fields that change. */
const FINAL_FIELDS: Record<string, ReadonlySet<string>> = {
  // the roots: by seqno or hash, never relative to the tip
  Query: new Set(['block', 'transaction', 'message']),
  // an account's address, never its state
  Account: new Set(['id', 'address', 'friendly']),
  Transaction: new Set([
    'id', 'hash', 'lt', 'now', 'mcBlockSeqno', 'traceId', 'prevTransactionHash', 'prevTransactionLt', 'origStatus', 'endStatus',
    'totalFees', 'description', 'emulated', 'finality', 'account', 'block', 'inMessage', 'outMessages', 'accountStateBefore',
    'accountStateAfter',
  ]),
  // not destinationTransaction: a message in flight has none yet
  Message: new Set([
    'id', 'hash', 'hashNorm', 'source', 'destination', 'value', 'fwdFee', 'ihrFee', 'importFee', 'ihrDisabled', 'bounce', 'bounced',
    'createdLt', 'createdAt', 'opcode', 'decodedOpcode', 'comment', 'body', 'bodyHash', 'initState', 'sourceTransaction',
  ]),
};

const isFinalField = (parent: string, field: string): boolean =>
  field === '__typename' || FINAL_TYPES.has(parent) || (FINAL_FIELDS[parent]?.has(field) ?? false);

/** Whether every field the document reads is final, and the operation is a query. Kept per document and operation. */
const verdicts = new WeakMap<DocumentNode, Map<string, boolean>>();

export function readsOnlyFinalData(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): boolean {
  const key = operationName ?? '';
  let byName = verdicts.get(document);
  const known = byName?.get(key);
  if (known !== undefined) return known;
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const operation = operationName
    ? operations.find((o) => o.name?.value === operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
  let final = operation?.operation === 'query';
  if (final) {
    const typeInfo = new TypeInfo(schema);
    visit(
      document,
      visitWithTypeInfo(typeInfo, {
        Field(node) {
          const parent = typeInfo.getParentType();
          if (!parent || !isFinalField(getNamedType(parent).name, node.name.value)) final = false;
        },
      }),
    );
  }
  if (!byName) verdicts.set(document, (byName = new Map()));
  byName.set(key, final);
  return final;
}

/** Requests whose answer may be kept: final fields only, every root found, no error. */
const keepable = new WeakSet<FastifyRequest>();

/** Yoga plugin: marks the Fastify request of an answer that may be cached (both the full handler and the fast path run it). */
export function useFinalityCache(): Plugin {
  return {
    onExecute({ args }) {
      const { req, capabilities } = args.contextValue as { req?: FastifyRequest; capabilities?: { control?: unknown } };
      // on the local chain nothing is final for good: a restored checkpoint or a reset undoes any block
      if (capabilities?.control) return undefined;
      if (!req || !readsOnlyFinalData(args.schema, args.document, args.operationName)) return undefined;
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result) return;
          // a block or transaction that is not there yet answers null now and something else later
          const data = result.data as Record<string, unknown> | null | undefined;
          if (!result.errors && data && Object.values(data).every((v) => v !== null)) keepable.add(req);
        },
      };
    },
  };
}

const etagOf = (body: string): string => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** `If-None-Match` holds this tag (or `*`); weak tags compare by their opaque part. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v.replace(/^W\//, '') === etag;
  });
}

/**
 * Sets the caching headers of a GraphQL answer about to be sent; returns the status and body to send
 * (304 with no body when the client's copy is current).
 */
export function cacheAnswer(req: FastifyRequest, reply: FastifyReply, status: number, body: string): { status: number; body: string } {
  if (status !== 200 || !keepable.has(req)) {
    reply.header('cache-control', NO_STORE);
    return { status, body };
  }
  const etag = etagOf(body);
  // the same URL answers GraphiQL, SSE or JSON by Accept: a shared cache must keep them apart
  reply.header('cache-control', IMMUTABLE).header('etag', etag).header('vary', 'Accept');
  if (matches(req.headers['if-none-match'], etag)) return { status: 304, body: '' };
  return { status, body };
}
