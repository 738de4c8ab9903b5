/**
 * The workbench in the graph over loopback: `mutation { localnet { … } }` runs acton's operations and the drills
 * in the order written and answers what the REST routes answer; `query { localnet { … } }` reads the node's
 * state; failures carry the route's error and a code; upstream mode answers an error.
 */
import { randomBytes } from 'node:crypto';
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { startUpstreamGateway } from '../../sources/upstream/helpers.js';

let g: Gateway;
beforeAll(async () => {
  g = await startTestGateway({ blockInterval: 3_600_000, seed: 'graphql-localnet' });
}, 120_000);
afterAll(() => g?.close());

async function gql(url: string, query: string): Promise<{ data?: any; errors?: any[] }> {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return (await res.json()) as { data?: any; errors?: any[] };
}

describe('the localnet namespace', () => {
  it('runs its fields in the order written: fund, mine, checkpoint, fund again, mine, restore', async () => {
    const a = new Address(0, randomBytes(32)).toRawString();
    const head = (await gql(g.url, '{ localnet { nodeInfo { lastBlockSeqno clock { timeOffsetSeconds } } } }')).data!.localnet.nodeInfo.lastBlockSeqno as number;
    const r = await gql(
      g.url,
      `mutation { localnet {
        fund: fundAccount(address: "${a}", amount: "1000") { hash }
        m1: mine { blocksMined lastBlockSeqno blocks { workchain shard seqno } }
        cp: createCheckpoint(name: "gql") { name blockSeqno }
        again: fundAccount(address: "${a}", amount: "5") { hash }
        m2: mine(blocks: 2) { blocksMined lastBlockSeqno }
        time: increaseTime(seconds: 60) { timeOffsetSeconds nextBlockTimestamp }
        back: restoreCheckpoint(name: "gql") { name blockSeqno }
      } }`,
    );
    expect(r.errors).toBeUndefined();
    const l = r.data!.localnet;
    expect(l.fund.hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(l.m1).toEqual({ blocksMined: 1, lastBlockSeqno: head + 1, blocks: [{ workchain: 0, shard: '-9223372036854775808', seqno: head + 1 }] });
    expect(l.cp).toEqual({ name: 'gql', blockSeqno: head + 1 });
    expect(l.m2).toEqual({ blocksMined: 2, lastBlockSeqno: head + 3 });
    expect(l.time.timeOffsetSeconds).toBeGreaterThanOrEqual(60);
    expect(l.back).toEqual({ name: 'gql', blockSeqno: head + 1 });
    const after = await gql(g.url, `{ account(address: "${a}") { balance } localnet { checkpoints { name blockSeqno } nodeInfo { lastBlockSeqno clock { timeOffsetSeconds } } } }`);
    expect(after.data!.account.balance).toBe('1000');
    expect(after.data!.localnet.checkpoints).toEqual([{ name: 'gql', blockSeqno: head + 1 }]);
    expect(after.data!.localnet.nodeInfo.lastBlockSeqno).toBe(head + 1);
  });

  it('edits a state and drills, answering as the REST routes do; a failing field is null with its error', async () => {
    const a = new Address(0, randomBytes(32)).toRawString();
    const r = await gql(
      g.url,
      `mutation { localnet {
        uninit: changeAccountState(address: "${a}", state: { kind: UNINIT, balance: "42" })
        delay: setFinalityDelay(ms: 600000) { finalityDelayMs lastFinalizedSeqno lastBlockSeqno }
        fund: fundAccount(address: "${a}", amount: "1") { hash }
        mine { lastBlockSeqno }
        undo: rollback(toSeqno: 0) { toSeqno }
      } }`,
    );
    expect(r.data!.localnet.uninit).toBe(true);
    expect(r.data!.localnet.delay).toMatchObject({ finalityDelayMs: 600000 });
    const { lastFinalizedSeqno } = r.data!.localnet.delay;
    // a field that fails is null with the route's error and code; the ones before it stand
    expect(r.data!.localnet.undo).toBeNull();
    expect(r.errors).toEqual([
      expect.objectContaining({ message: expect.stringMatching(new RegExp(`^data source: block ${lastFinalizedSeqno} is finalized: finalized blocks are never rolled back`)), path: ['localnet', 'undo'] }),
    ]);
    const undone = await gql(g.url, `mutation { localnet { rollback(toSeqno: ${lastFinalizedSeqno}) { fromSeqno toSeqno blocksUndone transactionsUndone undoneTraces } setFinalityDelay(ms: 0) { finalityDelayMs } } }`);
    expect(undone.errors).toBeUndefined();
    expect(undone.data!.localnet.rollback).toMatchObject({ toSeqno: lastFinalizedSeqno, blocksUndone: 1, transactionsUndone: 2 });
    expect((await gql(g.url, `{ account(address: "${a}") { balance } }`)).data!.account.balance).toBe('42');
  });
});

describe('the localnet namespace in upstream mode', () => {
  let front: Gateway;
  beforeAll(async () => {
    front = await startUpstreamGateway(g.url);
  }, 60_000);
  afterAll(() => front?.close());

  it('answers an error saying the local chain is needed', async () => {
    const r = await gql(front.url, 'mutation { localnet { mine { blocksMined } } }');
    expect(r.data).toBeNull();
    expect(r.errors![0].message).toMatch(/^data source: localnet needs the local chain/);
    expect((await gql(front.url, '{ localnet { nodeInfo { lastBlockSeqno } } }')).errors![0].message).toMatch(/^data source: localnet needs the local chain/);
  });
});
