/**
 * Webhooks in the graph: the same operations as `/api/webhooks/v1` (docs/webhooks.md), on the same webhooks and
 * with the same checks and words, owned by the request's API key (header, `api_key`, or a WebSocket's
 * connectionParams). A webhook of another key is not found, as one that does not exist.
 */
import { rawUpper } from '../../../model/address.js';
import { GraphQLError } from 'graphql';
import type { Address } from '@ton/core';
import { WebhookInputError } from '../../../live/webhooks/spec.js';
import { WebhookForbidden, WebhookNotFound, WebhookUnavailable, type Webhooks } from '../../../live/webhooks/webhooks.js';
import { builder, type GraphQLContext } from '../builder.js';
import { ErrorCode } from '../errors.js';
import { FinalityEnum } from './transaction.js';

/** A webhook as the REST API answers it (snake_case): what these types read. */
type WireWebhook = Record<string, any>;
type WireDelivery = Record<string, any>;

function fail(e: unknown): never {
  if (e instanceof WebhookInputError) throw new GraphQLError(e.message, { extensions: { code: ErrorCode.BAD_USER_INPUT } });
  if (e instanceof WebhookNotFound) throw new GraphQLError(e.message, { extensions: { code: ErrorCode.NOT_FOUND } });
  if (e instanceof WebhookForbidden) throw new GraphQLError(e.message, { extensions: { code: ErrorCode.UNAUTHENTICATED } });
  if (e instanceof WebhookUnavailable) throw new GraphQLError(e.message, { extensions: { code: ErrorCode.UNAVAILABLE } });
  throw e;
}

/** The webhooks and the owner the request acts as. */
function caller(ctx: GraphQLContext): { webhooks: Webhooks; owner: string } {
  const webhooks = ctx.capabilities.webhooks?.();
  if (!webhooks) throw new GraphQLError('webhooks are not available yet: the source is starting, or it has no live events', { extensions: { code: ErrorCode.UNAVAILABLE } });
  try {
    return { webhooks, owner: webhooks.ownerOf(ctx.apiKey) };
  } catch (e) {
    return fail(e);
  }
}

async function run<T>(ctx: GraphQLContext, op: (w: Webhooks, owner: string) => Promise<T>): Promise<T> {
  const { webhooks, owner } = caller(ctx);
  return op(webhooks, owner).catch(fail);
}

const WebhookDeliveryRef = builder.objectRef<WireDelivery>('WebhookDelivery').implement({
  description: 'One attempt at delivering an event to a webhook.',
  fields: (t) => ({
    at: t.float({ description: 'unix ms when the attempt ended', resolve: (d) => d.at }),
    eventId: t.string({ resolve: (d) => d.event_id }),
    cursor: t.string({ nullable: true, resolve: (d) => d.cursor }),
    type: t.string({ resolve: (d) => d.type }),
    finality: t.field({ type: FinalityEnum, nullable: true, resolve: (d) => d.finality }),
    attempt: t.int({ resolve: (d) => d.attempt }),
    status: t.int({ nullable: true, description: "the receiver's HTTP status; null for a timeout or network error", resolve: (d) => d.status }),
    outcome: t.string({ description: 'delivered, retry or paused', resolve: (d) => d.outcome }),
    latencyMs: t.int({ resolve: (d) => d.latency_ms }),
    error: t.string({ nullable: true, resolve: (d) => d.error ?? null }),
    response: t.string({ nullable: true, description: "the first bytes of the receiver's answer", resolve: (d) => d.response ?? null }),
  }),
});

const WebhookRef = builder.objectRef<WireWebhook>('Webhook').implement({
  description: 'Events of a Streaming v2 subscription POSTed to a URL, signed, at least once and in order (docs/webhooks.md).',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    types: t.stringList({ resolve: (w) => w.types }),
    addresses: t.field({ type: ['Address'], description: 'raw form; empty in a list of webhooks (see addressCount)', resolve: (w) => w.addresses ?? [] }),
    addressCount: t.int({ resolve: (w) => w.address_count ?? w.addresses.length }),
    traceExternalHashNorms: t.stringList({ resolve: (w) => w.trace_external_hash_norms ?? [] }),
    minFinality: t.field({ type: FinalityEnum, resolve: (w) => w.min_finality }),
    includeAddressBook: t.exposeBoolean('include_address_book'),
    includeMetadata: t.exposeBoolean('include_metadata'),
    actionTypes: t.stringList({ resolve: (w) => w.action_types }),
    supportedActionTypes: t.stringList({ resolve: (w) => w.supported_action_types }),
    msgBodyHash: t.string({ nullable: true, description: 'only transactions whose in-message body has this hash (standard base64)', resolve: (w) => w.msg_body_hash ?? null }),
    paused: t.exposeBoolean('paused'),
    lastDelivered: t.string({ nullable: true, description: 'the cursor of the last finalized event its receiver acknowledged', resolve: (w) => w.last_delivered }),
    failedCursor: t.string({ nullable: true, description: 'the cursor of the event whose attempts paused it', resolve: (w) => w.failed_cursor }),
    failedAttempts: t.int({ resolve: (w) => w.failed_attempts }),
    lastError: t.string({ nullable: true, resolve: (w) => w.last_error }),
    queued: t.int({ nullable: true, description: 'events waiting in this server’s memory', resolve: (w) => w.queued ?? null }),
    createdAt: t.float({ description: 'unix ms', resolve: (w) => w.created_at }),
    updatedAt: t.float({ description: 'unix ms', resolve: (w) => w.updated_at }),
    deliveries: t.field({
      type: [WebhookDeliveryRef],
      description: 'The newest attempts, newest first.',
      args: { last: t.arg.int({ defaultValue: 20 }) },
      resolve: (w, args, ctx) => run(ctx, (hooks, owner) => hooks.deliveries(owner, w.id, Math.max(1, Math.min(args.last ?? 20, 1000)))),
    }),
  }),
});

const CreatedWebhookRef = builder.objectRef<WireWebhook>('CreatedWebhook').implement({
  fields: (t) => ({
    webhook: t.field({ type: WebhookRef, resolve: (w) => w }),
    secret: t.string({ description: 'what deliveries are signed with: shown once, here', resolve: (w) => w.secret }),
  }),
});

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The subscription's fields and the secret, shared by the create and the change input. */
const subscriptionFields = (t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>) => ({
  types: t.stringList({ description: 'transactions, actions, trace, account_state_change, jettons_change' }),
  addresses: t.field({ type: ['Address'] }),
  traceExternalHashNorms: t.stringList(),
  minFinality: t.field({ type: FinalityEnum }),
  includeAddressBook: t.boolean(),
  includeMetadata: t.boolean(),
  actionTypes: t.stringList(),
  supportedActionTypes: t.stringList(),
  msgBodyHash: t.string({ description: 'only transactions whose in-message body has this hash (hex, base64 or base64url); needs addresses and transactions' }),
  secret: t.string({ description: 'at least 16 characters; made when absent' }),
});

const WebhookInput = builder.inputType('WebhookInput', {
  fields: (t) => ({ url: t.string({ required: true }), ...subscriptionFields(t) }),
});

const WebhookChange = builder.inputType('WebhookChange', {
  description: 'Fields given replace the current ones; the change resumes a paused webhook unless `paused: true`.',
  fields: (t) => ({
    url: t.string(),
    ...subscriptionFields(t),
    paused: t.boolean(),
    cursor: t.string({ description: 'rewind or skip: delivery goes on after this cursor' }),
    fromNow: t.boolean({ description: 'skip to now: delivery goes on with the events that come next' }),
  }),
});

/** The REST body an input stands for: the same checks and words apply to both. */
function bodyOf(input: Record<string, unknown>): Record<string, unknown> {
  const names: Record<string, string> = {
    traceExternalHashNorms: 'trace_external_hash_norms',
    minFinality: 'min_finality',
    includeAddressBook: 'include_address_book',
    includeMetadata: 'include_metadata',
    actionTypes: 'action_types',
    supportedActionTypes: 'supported_action_types',
    msgBodyHash: 'msg_body_hash',
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || v === null || k === 'fromNow') continue;
    out[names[k] ?? k] = k === 'addresses' ? (v as Address[]).map((a) => rawUpper(a)) : v;
  }
  if (input.fromNow === true) out.cursor = null;
  return out;
}

builder.queryFields((t) => ({
  webhooks: t.field({
    type: [WebhookRef],
    description: "The request's API key's webhooks (addresses left out: read one webhook for them).",
    resolve: (_root, _args, ctx) => run(ctx, (w, owner) => w.list(owner)),
  }),
  webhook: t.field({
    type: WebhookRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => run(ctx, (w, owner) => w.get(owner, String(args.id))),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: CreatedWebhookRef,
    args: { input: t.arg({ type: WebhookInput, required: true }) },
    resolve: (_root, args, ctx) => run(ctx, (w, owner) => w.create(owner, bodyOf(args.input))),
  }),
  changeWebhook: t.field({
    type: WebhookRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: WebhookChange, required: true }) },
    resolve: (_root, args, ctx) => run(ctx, (w, owner) => w.change(owner, String(args.id), bodyOf(args.input))),
  }),
  deleteWebhook: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => run(ctx, (w, owner) => w.remove(owner, String(args.id)).then(() => true)),
  }),
}));
