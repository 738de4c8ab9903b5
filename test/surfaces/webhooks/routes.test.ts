/**
 * The webhooks API over real HTTP, REST and GraphQL: a webhook belongs to the key that made it, and another key
 * can neither see nor change it (404, as for one that does not exist; absent from its list); keyless clients are
 * refused unless the server allows them; a body is checked as a Streaming v2 subscription is, in its words, plus
 * the target URL (http/https, no credentials, no private address where those are refused), the secret, the
 * limits on addresses and webhooks per key and unknown fields; a change is checked the same way and resumes a
 * paused webhook; the secret is shown once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { API_KEYS, KEYS, api, fresh, webhookConfig } from '../../helpers/webhooks.js';

const [ONE, TWO] = KEYS as [string, string];
let g: Gateway;
let keyless: Gateway;
const a = fresh().toRawString().toUpperCase();
const b = fresh().toRawString().toUpperCase();
const URL_OK = 'https://receiver.example.com/hook';
const valid = { url: URL_OK, types: ['transactions'], addresses: [a] };

beforeAll(async () => {
  [g, keyless] = await Promise.all([
    startTestGateway({ blockInterval: 0, apiKeys: API_KEYS, webhooks: webhookConfig({ allowPrivate: false, maxAddresses: 3, maxPerKey: 3 }) }),
    startTestGateway({ blockInterval: 0, webhooks: webhookConfig({ keyless: true }) }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([g?.close(), keyless?.close()]);
});

async function graphql(url: string, key: string | undefined, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return res.json();
}

describe('who may manage webhooks', () => {
  it('a key sees and changes only its own; another key gets 404 and an empty list', async () => {
    const made = await api(g.url, ONE, 'POST', '', valid);
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    expect(id).toMatch(/^wh_[A-Za-z0-9_-]{22}$/);
    expect(made.body.secret).toMatch(/^whsec_/);
    expect(made.body).toMatchObject({ url: URL_OK, types: ['transactions'], addresses: [a], min_finality: 'finalized', paused: false, failed_attempts: 0 });

    const notFound = { status: 404, body: { code: 404, error: 'webhook not found' } };
    expect(await api(g.url, TWO, 'GET', `/${id}`)).toEqual(notFound);
    expect(await api(g.url, TWO, 'PATCH', `/${id}`, { paused: true })).toEqual(notFound);
    expect(await api(g.url, TWO, 'GET', `/${id}/deliveries`)).toEqual(notFound);
    expect(await api(g.url, TWO, 'DELETE', `/${id}`)).toEqual(notFound);
    expect(await api(g.url, TWO, 'GET')).toEqual({ status: 200, body: { webhooks: [] } });
    expect(await api(g.url, ONE, 'GET', '/wh_nothing')).toEqual(notFound);

    // untouched by the other key's attempts; the secret is not shown again
    const mine = await api(g.url, ONE, 'GET', `/${id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.paused).toBe(false);
    expect(mine.body).not.toHaveProperty('secret');
    const listed = await api(g.url, ONE, 'GET');
    expect(listed.body.webhooks.map((w: { id: string }) => w.id)).toEqual([id]);
    expect(listed.body.webhooks[0]).toMatchObject({ address_count: 1 });
    expect(listed.body.webhooks[0]).not.toHaveProperty('addresses');

    expect((await api(g.url, ONE, 'DELETE', `/${id}`)).status).toBe(204);
    expect(await api(g.url, ONE, 'GET', `/${id}`)).toEqual(notFound);
  });

  it('keyless clients are refused unless the server allows them; an unknown key is refused', async () => {
    expect(await api(g.url, undefined, 'POST', '', valid)).toEqual({
      status: 401,
      body: { code: 401, error: 'webhooks are managed with an API key (X-API-Key); keyless clients may not unless the server runs with --webhooks-keyless' },
    });
    expect(await api(g.url, 'no-such-key', 'GET')).toEqual({ status: 401, body: { code: 401, error: 'API key does not exist' } });
    const made = await api(keyless.url, undefined, 'POST', '', { ...valid, url: 'http://127.0.0.1:9/hook' });
    expect(made.status).toBe(201);
    expect((await api(keyless.url, undefined, 'GET')).body.webhooks).toHaveLength(1);
  });

  it('a key holds at most --webhooks-max-per-key', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await api(g.url, TWO, 'POST', '', valid)).body.id);
    expect(await api(g.url, TWO, 'POST', '', valid)).toEqual({ status: 400, body: { code: 400, error: 'too many webhooks: at most 3 per API key' } });
    // another key is not counted against it
    expect((await api(g.url, ONE, 'POST', '', valid)).status).toBe(201);
    for (const id of ids) await api(g.url, TWO, 'DELETE', `/${id}`);
  });
});

describe('what a webhook is made of', () => {
  const refused = async (body: unknown, error: string) => expect(await api(g.url, ONE, 'POST', '', body)).toEqual({ status: 400, body: { code: 400, error } });

  it('is a Streaming v2 subscription, checked in its order and words', async () => {
    await refused({ url: URL_OK }, 'types are required for subscription');
    await refused({ url: URL_OK, types: ['trace_invalidated'], addresses: [a] }, 'invalid event type: trace_invalidated');
    await refused({ url: URL_OK, types: ['transactions'], addresses: ['nope'] }, 'invalid address: nope');
    await refused({ url: URL_OK, types: ['transactions'] }, 'addresses are required for subscription');
    await refused({ url: URL_OK, types: ['trace'] }, 'trace_external_hash_norms are required for trace subscription');
    await refused({ url: URL_OK, types: ['transactions'], addresses: [a], min_finality: 'soon' }, 'unknown finality state: soon');
    await refused({ url: URL_OK, types: 'transactions', addresses: [a] }, 'types must be an array of strings');
    await refused({ ...valid, addresses: [a, b, fresh().toRawString(), fresh().toRawString()] }, 'too many addresses: 4 > max 3');
    await refused({ ...valid, everything: true }, 'unknown field: everything');
    // toncenter's newer filter is taken; a replay at connect means nothing to a webhook, which resumes from its cursor
    await refused({ ...valid, types: ['actions'], msg_body_hash: 'ab'.repeat(32) }, 'msg_body_hash requires addresses and type "transactions"');
    await refused({ ...valid, msg_body_hash: 'nope' }, 'invalid msg_body_hash');
    await refused({ ...valid, replay_existing: true }, 'unknown field: replay_existing');
    const hashed = await api(g.url, ONE, 'POST', '', { ...valid, msg_body_hash: 'ab'.repeat(32) });
    expect(hashed.body).toMatchObject({ msg_body_hash: Buffer.from('ab'.repeat(32), 'hex').toString('base64') });
    await api(g.url, ONE, 'DELETE', `/${hashed.body.id}`);
    await refused([valid], 'expected a JSON object');
    // any address form, normalised and deduplicated
    const made = await api(g.url, ONE, 'POST', '', { ...valid, addresses: [a, a.toLowerCase()], min_finality: 'pending', action_types: ['ton_transfer'] });
    expect(made.body).toMatchObject({ addresses: [a], min_finality: 'pending', action_types: ['ton_transfer'] });
    await api(g.url, ONE, 'DELETE', `/${made.body.id}`);
  });

  it('points at a public http(s) URL, with a secret of 16 to 256 characters', async () => {
    await refused({ ...valid, url: undefined }, 'url is required');
    await refused({ ...valid, url: 'ftp://receiver.example.com/x' }, 'url must be an http or https URL');
    await refused({ ...valid, url: 'receiver.example.com' }, 'url must be an absolute http or https URL');
    await refused({ ...valid, url: 'https://user:pw@receiver.example.com/' }, 'url must not carry credentials');
    // the host as the URL parser spells it
    for (const [host, spelt] of [['127.0.0.1'], ['10.1.2.3'], ['[::1]', '::1'], ['169.254.169.254'], ['localhost'], ['[::ffff:192.168.0.1]', '::ffff:c0a8:1'], ['intranet'], ['0x7f000001', '127.0.0.1']]) {
      await refused({ ...valid, url: `http://${host}:8080/hook` }, `url must name a public host: ${spelt ?? host} is loopback, private or reserved (the server refuses private targets)`);
    }
    await refused({ ...valid, secret: 'short' }, 'secret must be 16 to 256 characters');
    const made = await api(g.url, ONE, 'POST', '', { ...valid, secret: 'a-secret-of-my-own' });
    expect(made.body.secret).toBe('a-secret-of-my-own');
    await api(g.url, ONE, 'DELETE', `/${made.body.id}`);
  });

  it('refuses a body that is not JSON, or too large', async () => {
    const notJson = await api(g.url, ONE, 'POST', '', '{"url":');
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe(400);
    const huge = await api(g.url, ONE, 'POST', '', { ...valid, padding: 'x'.repeat(64 * 1024 + 3 * 80) });
    expect(huge).toEqual({ status: 413, body: { code: 413, error: `request body too large: at most ${64 * 1024 + 3 * 80} bytes` } });
  });

  it('changes: fields given replace the current ones, checked again; the change resumes unless it pauses', async () => {
    const id = (await api(g.url, ONE, 'POST', '', valid)).body.id as string;
    const paused = await api(g.url, ONE, 'PATCH', `/${id}`, { paused: true, addresses: [b], types: ['transactions', 'actions'] });
    expect(paused.body).toMatchObject({ paused: true, addresses: [b], types: ['transactions', 'actions'], url: URL_OK });
    expect(await api(g.url, ONE, 'PATCH', `/${id}`, { types: [] })).toEqual({ status: 400, body: { code: 400, error: 'types are required for subscription' } });
    expect(await api(g.url, ONE, 'PATCH', `/${id}`, { cursor: 'not a cursor' })).toEqual({
      status: 400,
      body: { code: 400, error: 'cursor must be a cursor an event carried, or null' },
    });
    expect(await api(g.url, ONE, 'PATCH', `/${id}`, { id: 'x' })).toEqual({ status: 400, body: { code: 400, error: 'unknown field: id' } });
    // a refused change changed nothing
    expect((await api(g.url, ONE, 'GET', `/${id}`)).body).toMatchObject({ paused: true, types: ['transactions', 'actions'] });
    const resumed = await api(g.url, ONE, 'PATCH', `/${id}`, { url: 'https://other.example.com/' });
    expect(resumed.body).toMatchObject({ paused: false, url: 'https://other.example.com/', addresses: [b] });
    await api(g.url, ONE, 'DELETE', `/${id}`);
  });
});

describe('webhooks in GraphQL', () => {
  const FIELDS = 'id url types addresses addressCount minFinality paused lastDelivered failedAttempts lastError';

  it('creates, lists, changes and deletes as REST does, for the key of the request only', async () => {
    const created = await graphql(g.url, ONE, `mutation ($a: [Address!]) { createWebhook(input: { url: "${URL_OK}", types: ["transactions"], addresses: $a, minFinality: confirmed }) { secret webhook { ${FIELDS} } } }`, {
      a: [a],
    });
    expect(created.errors).toBeUndefined();
    const { secret, webhook } = created.data.createWebhook;
    expect(secret).toMatch(/^whsec_/);
    expect(webhook).toMatchObject({ url: URL_OK, types: ['transactions'], addresses: [a], addressCount: 1, minFinality: 'confirmed', paused: false, failedAttempts: 0 });
    const rest = await api(g.url, ONE, 'GET', `/${webhook.id}`);
    expect(rest.body).toMatchObject({ id: webhook.id, min_finality: 'confirmed' });

    const listed = await graphql(g.url, ONE, `{ webhooks { id addresses addressCount } }`);
    expect(listed.data.webhooks).toContainEqual({ id: webhook.id, addresses: [], addressCount: 1 });
    expect((await graphql(g.url, TWO, `{ webhooks { id } }`)).data.webhooks.map((w: { id: string }) => w.id)).not.toContain(webhook.id);

    const theirs = await graphql(g.url, TWO, `{ webhook(id: "${webhook.id}") { id } }`);
    expect(theirs.errors[0]).toMatchObject({ message: 'webhook not found', extensions: { code: 'NOT_FOUND' } });
    const stolen = await graphql(g.url, TWO, `mutation { changeWebhook(id: "${webhook.id}", input: { paused: true }) { id } }`);
    expect(stolen.errors[0].extensions.code).toBe('NOT_FOUND');

    const changed = await graphql(g.url, ONE, `mutation { changeWebhook(id: "${webhook.id}", input: { paused: true, types: ["transactions", "actions"] }) { paused types deliveries { eventId } } }`);
    expect(changed.data.changeWebhook).toEqual({ paused: true, types: ['transactions', 'actions'], deliveries: [] });
    const bad = await graphql(g.url, ONE, `mutation { changeWebhook(id: "${webhook.id}", input: { types: ["nothing"] }) { id } }`);
    expect(bad.errors[0]).toMatchObject({ message: 'invalid event type: nothing', extensions: { code: 'BAD_USER_INPUT' } });

    const keylessTry = await graphql(g.url, undefined, `{ webhooks { id } }`);
    expect(keylessTry.errors[0].extensions.code).toBe('UNAUTHENTICATED');

    expect((await graphql(g.url, ONE, `mutation { deleteWebhook(id: "${webhook.id}") }`)).data.deleteWebhook).toBe(true);
    expect((await api(g.url, ONE, 'GET', `/${webhook.id}`)).status).toBe(404);
  });
});
