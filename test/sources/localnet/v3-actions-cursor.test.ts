/**
 * `/api/v3/actions` cursor paging (toncenter-newer.md §7, a feature branch): off by default, where `cursor` is an
 * unknown parameter toncenter's main line ignores and no `next_cursor` is answered; with
 * V3_BRANCH_FEATURES=actions-cursor, on the local chain and upstream mode alike, pages follow `next_cursor`
 * (unpadded base64url of the msgpack array [utime_mode, desc, trace_end, trace_id, end, action_id]) through the
 * whole list in either sort and in utime order, each row once; 422 `invalid cursor` for one that does not decode or
 * was made for another order, and a cursor with an offset is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { http, onBoth, startUpstreamGateway } from '../upstream/helpers.js';

type Json = any;

describe('/actions cursors behind V3_BRANCH_FEATURES=actions-cursor', () => {
  let A: Gateway;
  let B: Gateway;
  let plain: Gateway;
  const both = onBoth(() => A, () => B);

  beforeAll(async () => {
    A = await startTestGateway({ v3BranchFeatures: ['actions-cursor'] });
    B = await startUpstreamGateway(A.url, { UPSTREAM_RPS: '0', V3_BRANCH_FEATURES: 'actions-cursor' });
    plain = await startTestGateway();
  }, 120_000);
  afterAll(async () => {
    await plain?.close();
    await B?.close();
    await A?.close();
  });

  /** Every page from the first, following next_cursor; the pages' rows and the cursors seen. */
  async function walk(query: string, limit: number): Promise<{ rows: Json[]; cursors: string[] }> {
    const rows: Json[] = [];
    const cursors: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 200; page++) {
      const r = await both(`/actions?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(Object.keys(r.body)).toEqual(['actions', 'address_book', 'metadata', 'next_cursor']);
      rows.push(...r.body.actions);
      cursor = r.body.next_cursor;
      if (r.body.actions.length < limit) expect(cursor).toBeNull();
      if (cursor === null) return { rows, cursors };
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      cursors.push(cursor);
    }
    throw new Error('no last page');
  }

  it('walks the whole list page by page, in both sorts and in utime order, each action once', async () => {
    for (const query of ['sort=desc', 'sort=asc', 'sort=desc&start_utime=1']) {
      const whole = (await both(`/actions?${query}&limit=1000`)).body.actions.map((a: Json) => a.action_id);
      expect(whole.length).toBeGreaterThan(10);
      const { rows, cursors } = await walk(query, 7);
      expect(rows.map((a) => a.action_id), query).toEqual(whole);
      expect(cursors.length).toBe(Math.ceil(whole.length / 7) - (whole.length % 7 === 0 ? 0 : 1));
    }
  });

  it('a cursor is the msgpack array of where the page ended', async () => {
    const r = await both('/actions?limit=2');
    const last = r.body.actions[1];
    const b = Buffer.from(r.body.next_cursor, 'base64url');
    expect(b[0]).toBe(0x96);
    expect(b[1]).toBe(0xc2); // not utime order
    expect(b[2]).toBe(0xc3); // desc
    expect(b[3]).toBe(0xd3);
    expect(b.readBigInt64BE(4)).toBe(BigInt(last.trace_end_lt));
    expect(b.subarray(12, 14)).toEqual(Buffer.from([0xc4, 32]));
    expect(b.subarray(14, 46).toString('base64')).toBe(last.trace_id);
    expect(b.readBigInt64BE(47)).toBe(BigInt(last.end_lt));
    expect(b.subarray(55, 57)).toEqual(Buffer.from([0xc4, 32]));
    expect(b.subarray(57).toString('base64')).toBe(last.action_id);
  });

  it('refuses a cursor that does not decode, that another order made, or beside an offset', async () => {
    const cursor = (await both('/actions?limit=2')).body.next_cursor;
    const invalid = { status: 422, body: { code: 422, error: 'invalid cursor' } };
    for (const c of ['%2B%2B', 'AAAA', cursor.slice(0, -4), `${cursor}AA`]) expect(await both(`/actions?cursor=${c}`), c).toEqual(invalid);
    expect(await both(`/actions?cursor=${cursor}&sort=asc`)).toEqual(invalid);
    expect(await both(`/actions?cursor=${cursor}&start_utime=1`)).toEqual(invalid);
    expect(await both(`/actions?cursor=${cursor}&offset=2`)).toEqual({ status: 422, body: { code: 422, error: 'use either cursor or offset, not both' } });
  });

  it('off by default: cursor is an unknown parameter (refused when strict, ignored when lenient), and no next_cursor is answered', async () => {
    const cursor = (await both('/actions?limit=2')).body.next_cursor;
    for (const q of ['limit=2', `limit=2&cursor=${cursor}`, 'limit=2&cursor=garbage']) {
      const r = await http(`${plain.url}/api/v3/actions?${q}`, { headers: { 'x-lenient-params': '1' } });
      expect(r.status, q).toBe(200);
      expect(Object.keys(r.body as Json), q).toEqual(['actions', 'address_book', 'metadata']);
    }
    const strict = await http(`${plain.url}/api/v3/actions?limit=2&cursor=${cursor}`);
    expect(strict.status).toBe(422);
    expect((strict.body as Json).error).toMatch(/^unknown parameter `cursor`/);
    const doc = (await http(`${plain.url}/api/v3/openapi.json`)).body as Json;
    expect(doc.paths['/api/v3/actions'].get.parameters.map((p: Json) => p.name)).not.toContain('cursor');
    const on = (await http(`${A.url}/api/v3/openapi.json`)).body as Json;
    expect(on.paths['/api/v3/actions'].get.parameters.map((p: Json) => p.name)).toContain('cursor');
  });
});
