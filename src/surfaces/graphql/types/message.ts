/**
 * Message: toncenter v3's message object (v3.md §3.0 "Message") with both ends as accounts and as
 * transactions. A message met inline in a transaction knows that transaction; its other end is found through
 * one batched /messages call per level (which reports in_msg_tx_hash and out_msg_tx_hash).
 * Root fields: message, messages.
 */
import { Cell } from '@ton/core';
import type { Message } from '../wire.js';
import { V3_MAX_LIMIT } from '../../../api/v3/common.js';
import { MESSAGES_PARAMS } from '../../../api/v3/messages.js';
import { builder, type GraphQLContext } from '../builder.js';
import { comparePositions, defined, type KeysetQuery, keysetConnection, ltWindow } from '../connections.js';
import { badInput } from '../errors.js';
import { addressKey, fetchMessages, messageRecordLoader } from '../loaders.js';
import { AS_TEXT, routeArgs } from '../route-args.js';
import { AccountRef, ExtraCurrencyRef, extraCurrencyList } from './account.js';
import { TransactionRef } from './transaction.js';

export const MessageRef = builder.loadableNodeRef('Message', {
  id: { resolve: (m) => m.hash },
  // one /messages?msg_hash=…&msg_hash=… call per level; a key may be the normalised hash
  load: (keys: string[], ctx) => fetchMessages(ctx, keys),
  loaderOptions: { maxBatchSize: V3_MAX_LIMIT / 2 },
  toKey: (m: Message) => m.hash,
  cacheResolved: true,
});

export const MessageConnection = builder.connectionObject({ type: MessageRef, name: 'MessageConnection' });

/** Text of an op-0 comment: v3's decoded form when the source gives it, else read from the body. */
function commentOf(m: Message): string | null {
  const decoded = m.message_content?.decoded;
  if (decoded && decoded.type === 'text_comment' && typeof decoded.comment === 'string') return decoded.comment;
  if (m.opcode !== '0x00000000' || !m.message_content?.body) return null;
  try {
    const s = Cell.fromBase64(m.message_content.body).beginParse();
    s.loadUint(32);
    return s.loadStringTail();
  } catch {
    // not a well-formed snake string: no comment
    return null;
  }
}

type End = 'source' | 'destination';

/** The transaction at one end of a message: known inline, absent for externals, else looked up. */
async function transactionAt(m: Message, end: End, ctx: GraphQLContext): Promise<string | null> {
  const known = end === 'source' ? m.out_msg_tx_hash : m.in_msg_tx_hash;
  if (known) return known;
  if (m[end] === null) return null;
  const record = await messageRecordLoader(ctx).load(m.hash);
  return (end === 'source' ? record?.out_msg_tx_hash : record?.in_msg_tx_hash) ?? null;
}

MessageRef.implement({
  description: 'A message as toncenter v3 returns it.',
  fields: (t) => ({
    hash: t.field({ type: 'Hash', resolve: (m) => m.hash }),
    hashNorm: t.field({
      type: 'Hash',
      nullable: true,
      description: 'TEP-467 normalised hash; external-in messages only.',
      resolve: (m) => m.hash_norm ?? null,
    }),
    source: t.field({ type: AccountRef, nullable: true, resolve: (m) => (m.source ? { address: addressKey(m.source) } : null) }),
    destination: t.field({
      type: AccountRef,
      nullable: true,
      resolve: (m) => (m.destination ? { address: addressKey(m.destination) } : null),
    }),
    value: t.field({ type: 'BigInt', nullable: true, resolve: (m) => m.value }),
    valueExtraCurrencies: t.field({ type: [ExtraCurrencyRef], nullable: true, resolve: (m) => extraCurrencyList(m.value_extra_currencies) }),
    fwdFee: t.field({ type: 'BigInt', nullable: true, resolve: (m) => m.fwd_fee }),
    ihrFee: t.field({ type: 'BigInt', nullable: true, resolve: (m) => m.ihr_fee }),
    importFee: t.field({ type: 'BigInt', nullable: true, resolve: (m) => m.import_fee }),
    extraFlags: t.field({
      type: 'BigInt',
      nullable: true,
      description: 'The extra_flags that replace ihr_fee in newer message layouts; null where the source has none.',
      resolve: (m) => m.extra_flags ?? null,
    }),
    createdLt: t.field({ type: 'BigInt', nullable: true, resolve: (m) => m.created_lt }),
    createdAt: t.int({ nullable: true, resolve: (m) => (m.created_at === null ? null : Number(m.created_at)) }),
    opcode: t.string({ nullable: true, description: 'First 32 bits of the body as "0x%08x".', resolve: (m) => m.opcode }),
    decodedOpcode: t.string({ nullable: true, resolve: (m) => m.decoded_opcode }),
    bounce: t.boolean({ nullable: true, resolve: (m) => m.bounce }),
    bounced: t.boolean({ nullable: true, resolve: (m) => m.bounced }),
    ihrDisabled: t.boolean({ nullable: true, resolve: (m) => m.ihr_disabled }),
    comment: t.string({ nullable: true, description: 'The text of a text comment (op 0), decoded.', resolve: commentOf }),
    body: t.field({ type: 'Boc', nullable: true, resolve: (m) => m.message_content?.body ?? null }),
    bodyHash: t.field({ type: 'Hash', nullable: true, resolve: (m) => m.message_content?.hash ?? null }),
    decodedBody: t.string({
      nullable: true,
      description: 'The body as the source decoded it (v3 `message_content.decoded`), as JSON text; null when not decoded.',
      resolve: (m) => (m.message_content?.decoded ? JSON.stringify(m.message_content.decoded) : null),
    }),
    initState: t.field({ type: 'Boc', nullable: true, resolve: (m) => m.init_state?.body ?? null }),
    initStateHash: t.field({ type: 'Hash', nullable: true, resolve: (m) => m.init_state?.hash ?? null }),
    sourceTransaction: t.field({
      type: TransactionRef,
      nullable: true,
      description: 'The transaction that sent this message; null for an external-in message.',
      resolve: (m, _args, ctx) => transactionAt(m, 'source', ctx),
    }),
    destinationTransaction: t.field({
      type: TransactionRef,
      nullable: true,
      description: 'The transaction that received this message; null for an external-out message or one not yet delivered.',
      resolve: (m, _args, ctx) => transactionAt(m, 'destination', ctx),
    }),
  }),
});

const DirectionEnum = builder.enumType('MessageDirection', { values: ['in', 'out'] as const });

function opcodeArg(op: string | null | undefined): number | undefined {
  if (op == null) return undefined;
  const v = /^0x[0-9a-fA-F]{1,8}$/.test(op) ? Number(op) : /^-?\d{1,10}$/.test(op) ? Number(op) : NaN;
  if (!Number.isInteger(v) || v < -(2 ** 31) || v > 2 ** 32 - 1) throw badInput(`not a 32-bit opcode: ${JSON.stringify(op)}`);
  return v;
}

builder.queryFields((t) => ({
  message: t.field({
    type: MessageRef,
    nullable: true,
    description: 'A message by its hash or its normalised hash.',
    args: { hash: t.arg({ type: 'Hash', required: true }) },
    resolve: (_root, args) => args.hash.toString('base64'),
  }),
  messages: t.field({
    type: MessageConnection,
    nullable: true,
    description:
      'Messages, newest first by effective lt (created lt, or for an external-in the lt of the transaction that received it) then hash, as toncenter v1.3 orders /messages, and keyset-paged by that key; filters are those of toncenter v3 /messages.',
    args: {
      ...t.arg.connectionArgs(),
      ...routeArgs(
        t.arg,
        MESSAGES_PARAMS,
        ['source', 'destination', 'body_hash', 'opcode', 'direction', 'start_utime', 'end_utime', 'start_lt', 'end_lt', 'exclude_externals', 'only_externals'],
        { opcode: { ...AS_TEXT, description: '0x-hex or signed decimal.' }, direction: { type: DirectionEnum } },
      ),
    },
    resolve: (_root, args, ctx) => {
      const opcode = opcodeArg(args.opcode);
      const filter = {
        ...(args.source ? { source: args.source } : {}),
        ...(args.destination ? { destination: args.destination } : {}),
        ...(args.bodyHash ? { bodyHash: args.bodyHash } : {}),
        ...(opcode !== undefined ? { opcode } : {}),
        ...(args.direction ? { direction: args.direction } : {}),
        ...defined({ startUtime: args.startUtime, endUtime: args.endUtime }),
      };
      // toncenter v1.3 orders /messages by effective lt (created_lt, or the receiving transaction's lt for an
      // ext-in, which has no created_lt) and msg_hash; the cursor is that same (lt, hash). No lt or utime bound
      // reaches an ext-in (v1.3 keeps them out of both windows), so internals are asked for past the cursor's lt and ext-ins
      // walked from their end in the same order, each placed by its receiving transaction's lt
      const withExternals = !args.excludeExternals && [args.startLt, args.endLt, args.startUtime, args.endUtime].every((b) => b == null);
      const withInternals = !args.onlyExternals;
      const extLt = new Map<string, bigint>();
      const position = (m: Message) => ({ lt: m.created_lt !== null ? BigInt(m.created_lt) : extLt.get(m.hash)!, hash: m.hash });
      /** Ext-ins in `sort` order from the cursor's lt on (inclusive), at most `limit`. */
      const externals = async (q: KeysetQuery): Promise<Message[]> => {
        const out: Message[] = [];
        for (let offset = 0; ; offset += q.limit) {
          const page = (await ctx.v3.messages({ ...filter, onlyExternals: true, sort: q.sort, limit: q.limit, offset })).messages;
          const txs = await TransactionRef.getDataloader(ctx).loadMany(page.map((m) => m.in_msg_tx_hash!));
          page.forEach((m, i) => {
            const tx = txs[i];
            if (!tx || tx instanceof Error) throw new Error(`the transaction that received message ${m.hash} is not found`);
            extLt.set(m.hash, BigInt(tx.lt));
          });
          const past = q.fromLt === undefined ? page : page.filter((m) => (q.sort === 'asc' ? extLt.get(m.hash)! >= q.fromLt! : extLt.get(m.hash)! <= q.fromLt!));
          out.push(...past);
          if (out.length >= q.limit || page.length < q.limit) return out.slice(0, q.limit);
        }
      };
      return keysetConnection({
        args,
        order: 'desc',
        ltTies: true,
        position,
        // under a utime filter v3 /messages orders by created_at, not created_lt
        ...(args.startUtime != null || args.endUtime != null ? { sortKey: (m: Message) => m.created_at } : {}),
        fetch: async (q) => {
          const [internals, exts] = await Promise.all([
            withInternals ? ctx.v3.messages({ ...filter, excludeExternals: true, ...ltWindow(q, args), sort: q.sort, limit: q.limit }) : undefined,
            withExternals ? externals(q) : [],
          ]);
          // both in the list's order, each at most `limit` long: the first `limit` of the two are the list's next
          return [...(internals?.messages ?? []), ...exts].sort((a, b) => (q.sort === 'asc' ? 1 : -1) * comparePositions(position(a), position(b))).slice(0, q.limit);
        },
      });
    },
  }),
}));
