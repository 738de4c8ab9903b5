/**
 * PREVBLOCKS: contracts see the last masterchain blocks of the local chain (c7 parameter 13), in transactions
 * and in get-methods, and the executor that serialises that value once per block (src/engine/executor.ts)
 * hands the emulator exactly what sandbox's own serialisation would.
 */
import { createHash } from 'node:crypto';
import { beginCell, Cell, contractAddress, external, serializeTuple, storeMessage, toNano, type TupleItem } from '@ton/core';
import { Blockchain, Executor, type BlockId, type PrevBlocksInfo } from '@ton/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalExecutor, prevBlocksBoc, sharePrevBlocks } from '../../../src/engine/executor.js';
import { LocalChain } from '../../../src/sources/localnet/index.js';

/**
 * A probe contract: on any message (and as any get-method) it reads PREVMCBLOCKS, takes the newest block id
 * and stores root_hash (256 bits), seqno (32) and the number of ids (8) into c4, leaving that cell on the stack.
 *   ACCEPT; PREVMCBLOCKS; DUP; TLEN; SWAP; INDEX 0; DUP; INDEX 2; SWAP; INDEX 3;
 *   NEWC; STU 256; STU 32; STU 8; ENDC; DUP; POP c4
 */
const PROBE_CODE = beginCell().storeBuffer(Buffer.from('F800F83400206F88016F10206F12016F13C8CBFFCB1FCB07C920ED54', 'hex')).endCell();

interface Seen {
  rootHash: Buffer;
  seqno: number;
  count: number;
}

function readProbe(cell: Cell): Seen {
  const s = cell.beginParse();
  return { rootHash: s.loadBuffer(32), seqno: s.loadUint(32), count: s.loadUint(8) };
}

function blockId(i: number): BlockId {
  return {
    workchain: i % 3 === 0 ? 0 : -1,
    shard: -9223372036854775808n,
    seqno: i,
    rootHash: createHash('sha256').update(`root ${i}`).digest(),
    fileHash: createHash('sha256').update(`file ${i}`).digest(),
  };
}

/** The stack value as sandbox builds it: the whole tuple through @ton/core, then the one entry of a 1-deep stack. */
function referenceValue(info: PrevBlocksInfo): Cell {
  const id = (b: BlockId): TupleItem => ({
    type: 'tuple',
    items: [BigInt(b.workchain), b.shard, BigInt(b.seqno), BigInt(`0x${b.rootHash.toString('hex')}`), BigInt(`0x${b.fileHash.toString('hex')}`)].map((value) => ({ type: 'int', value })),
  });
  const items: TupleItem[] = [{ type: 'tuple', items: info.lastMcBlocks.map(id) }, id(info.prevKeyBlock)];
  if (info.lastMcBlocks100) items.push({ type: 'tuple', items: info.lastMcBlocks100.map(id) });
  const s = serializeTuple([{ type: 'tuple', items }]).beginParse();
  s.skip(24);
  s.loadRef();
  return s.asCell();
}

describe('prevBlocksBoc', () => {
  it('holds the same cells as @ton/core would build, for every list length', () => {
    for (let n = 0; n <= 18; n++) {
      for (const with100 of [false, true]) {
        // a sliding window, as after each seal: newest first
        const info: PrevBlocksInfo = {
          lastMcBlocks: Array.from({ length: n }, (_, i) => blockId(100 + n - i)),
          prevKeyBlock: blockId(7),
          ...(with100 ? { lastMcBlocks100: Array.from({ length: 3 * n }, (_, i) => blockId(1000 + n - i)) } : {}),
        };
        const roots = Cell.fromBoc(prevBlocksBoc(info));
        expect(roots).toHaveLength(1);
        expect(roots[0]!.hash().toString('hex'), `n=${n} with100=${with100}`).toBe(referenceValue(info).hash().toString('hex'));
      }
    }
  });

  it('writes hashes that fit in 64 bits as small integers, as @ton/core does', () => {
    const hash = (hex: string) => Buffer.from(hex.padStart(64, '0'), 'hex');
    const ids = [
      { ...blockId(1), rootHash: hash('05'), fileHash: hash('ff'.repeat(32)) },
      // 2^63 - 1 still fits, 2^63 does not
      { ...blockId(2), rootHash: hash('7fffffffffffffff'), fileHash: hash('8000000000000000') },
      { ...blockId(3), rootHash: hash('00'), fileHash: hash('01' + '00'.repeat(8)) },
    ];
    const info: PrevBlocksInfo = { lastMcBlocks: ids, prevKeyBlock: ids[0]! };
    expect(Cell.fromBoc(prevBlocksBoc(info))[0]!.hash()).toEqual(referenceValue(info).hash());
  });
});

describe('LocalExecutor', () => {
  /** Three rounds of new prev blocks, each a transaction and a get-method on the probe: hashes of all results. */
  const run = async (bc: Blockchain) => {
    bc.now = 1_800_000_000;
    const results: string[] = [];
    const init = { code: PROBE_CODE, data: beginCell().endCell() };
    const probe = contractAddress(0, init);
    const treasury = await bc.treasury('prevblocks');
    for (let round = 0; round < 3; round++) {
      const ids = Array.from({ length: 16 }, (_, i) => blockId(50 + round - i));
      bc.prevBlocks = { lastMcBlocks: ids, prevKeyBlock: ids[15]! };
      const r = await treasury.send({ to: probe, value: toNano('1'), bounce: false, ...(round === 0 ? { init } : {}) });
      for (const tx of r.transactions) results.push(tx.hash().toString('hex'));
      const state = (await bc.getContract(probe)).accountState;
      expect(state?.type).toBe('active');
      expect(readProbe((state as { state: { data: Cell } }).state.data)).toEqual({ rootHash: ids[0]!.rootHash, seqno: ids[0]!.seqno, count: 16 });
      const get = await bc.runGetMethod(probe, 'probe');
      const top = get.stack[get.stack.length - 1]!;
      expect(top.type).toBe('cell');
      results.push((top as { cell: Cell }).cell.hash().toString('hex'));
    }
    return results;
  };

  it('gives the emulator the same PREVBLOCKS as sandbox does: same transactions, same get-method results', async () => {
    const plain = await run(await Blockchain.create());
    const bc = await Blockchain.create({ executor: await LocalExecutor.create() });
    sharePrevBlocks(bc);
    expect(await run(bc)).toEqual(plain);
    expect(plain.length).toBe(3 * 3);
  });

  it('names PREVBLOCKS once per emulator instance and value, and a transaction without them sees none', async () => {
    /** rounds of ids (undefined: none set), each a transfer to the probe: the transactions' hashes and what the probe read */
    const rounds = async (bc: Blockchain, plan: (number | undefined)[]) => {
      bc.now = 1_800_000_000;
      const init = { code: PROBE_CODE, data: beginCell().endCell() };
      const probe = contractAddress(0, init);
      const treasury = await bc.treasury('prevblocks');
      await treasury.send({ to: probe, value: toNano('1'), bounce: false, init });
      const out: string[] = [];
      for (const round of plan) {
        const ids = round === undefined ? undefined : Array.from({ length: 16 }, (_, i) => blockId(round - i));
        bc.prevBlocks = ids ? { lastMcBlocks: ids, prevKeyBlock: ids[15]! } : undefined;
        const r = await treasury.send({ to: probe, value: toNano('1'), bounce: false });
        for (const tx of r.transactions) {
          const d = tx.description;
          out.push(`${tx.hash().toString('hex')} ${d.type === 'generic' && d.computePhase.type === 'vm' ? d.computePhase.exitCode : '-'}`);
        }
      }
      return out;
    };
    const counted = async () => {
      const executor = await LocalExecutor.create();
      const count = { named: 0 };
      const invoke = executor.inner.invoke.bind(executor.inner);
      executor.inner.invoke = (method: string, args: (number | string)[]) => {
        // the executor adds the parameter to `args` in place on its way in
        const r = invoke(method, args);
        if (method === '_emulate_with_emulator' && args.some((a) => typeof a === 'string' && a.includes('"prev_blocks_info"'))) count.named++;
        return r;
      };
      const bc = await Blockchain.create({ executor });
      sharePrevBlocks(bc);
      return { bc, count };
    };
    // the same ids twice (the second time the instance holds them), new ids, the first again: as sandbox does it
    const plan = [60, 60, 61, 60];
    const ours = await counted();
    expect(await rounds(ours.bc, plan)).toEqual(await rounds(await Blockchain.create(), plan));
    // named for the first 60, for 61, for 60 again (the deploy ran without): the second transaction of a round and
    // the repeated round find the instance holding them
    expect(ours.count.named).toBe(3);
    // ids, then none: the probe finds no PREVBLOCKS (a type check error), where sandbox's own executor, whose
    // instance keeps what it was last given, would still show the old ids
    const unset = await counted();
    const out = await rounds(unset.bc, [60, undefined]);
    expect(out.map((l) => l.split(' ')[1])).toEqual(['0', '0', '0', '7']);
    expect((await rounds(await Blockchain.create(), [60, undefined])).at(-1)!.endsWith(' 0')).toBe(true);
  });

  it('falls back to sandbox serialising by itself when the parameters do not pass where it adds them', async () => {
    const executor = await LocalExecutor.create();
    // as if sandbox called the emulator by another way than invoke: the added parameter never arrives
    executor.inner.invoke = Executor.prototype.invoke.bind(executor.inner);
    const plain = await run(await Blockchain.create());
    expect(await run(await Blockchain.create({ executor }))).toEqual(plain);
  });
});

describe('sharePrevBlocks', () => {
  it('hands out one frozen copy per value set, and sandbox still holds the value', async () => {
    const bc = await Blockchain.create();
    sharePrevBlocks(bc);
    expect(bc.prevBlocks).toBeUndefined();
    const ids = [blockId(3), blockId(2), blockId(1)];
    const info: PrevBlocksInfo = { lastMcBlocks: ids, prevKeyBlock: ids[2]! };
    bc.prevBlocks = info;
    const a = bc.prevBlocks!;
    expect(a).toEqual(info);
    expect(a).not.toBe(info);
    expect(bc.prevBlocks).toBe(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a.lastMcBlocks) && Object.isFrozen(a.lastMcBlocks[0])).toBe(true);
    // the caller's object stays its own
    ids.push(blockId(0));
    expect(bc.prevBlocks!.lastMcBlocks).toHaveLength(3);
    const snapshot = bc.snapshot();
    expect(snapshot.prevBlocksInfo).toEqual(a);
    bc.prevBlocks = undefined;
    expect(bc.prevBlocks).toBeUndefined();
    // a snapshot restore sets sandbox's field directly
    await bc.loadFrom(snapshot);
    expect(bc.prevBlocks).toEqual(a);
  });
});

describe('PREVBLOCKS on the local chain', () => {
  let chain: LocalChain;
  const init = { code: PROBE_CODE, data: beginCell().endCell() };
  const probe = contractAddress(0, init);

  beforeAll(async () => {
    chain = await LocalChain.create({ seed: 'prevblocks-test', blockInterval: 0 });
  }, 120_000);

  afterAll(async () => {
    await chain?.close();
  });

  const send = async (n: number, withInit: boolean) => {
    const msg = external({ to: probe, body: beginCell().storeUint(n, 32).endCell(), ...(withInit ? { init } : {}) });
    await chain.v2.sendBoc({ boc: beginCell().store(storeMessage(msg)).endCell().toBoc() });
  };
  const stored = (): Seen => {
    const st = chain.store.accountState(probe, chain.store.lastMc.seqno)!.shardAccount.account!.storage.state;
    if (st.type !== 'active') throw new Error('probe not active');
    return readProbe(st.state.data!);
  };
  const expected = (): Seen => {
    const last = chain.store.lastMc;
    return { rootHash: last.rootHash, seqno: last.seqno, count: Math.min(16, chain.store.mcBlocks.length) };
  };

  it('a transaction sees the last sealed masterchain blocks, newest first, and the next block sees the new ones', async () => {
    await chain.faucet(probe, toNano('10'));
    let want = expected();
    await send(1, true);
    expect(stored()).toEqual(want);

    // past 16 blocks the window slides: still the newest 16
    while (chain.store.mcBlocks.length < 20) await chain.sealBlock();
    for (let n = 2; n < 5; n++) {
      want = expected();
      expect(want.count).toBe(16);
      await send(n, false);
      // the message ran on top of `want`, then sealed the next block
      expect(stored()).toEqual(want);
      expect(stored().seqno).toBe(chain.store.lastMc.seqno - 1);
    }
  });

  it('a get-method sees them too', async () => {
    await chain.sealBlock();
    const want = expected();
    const res = await chain.v2.runGetMethodStd({ address: probe, method: 'probe', stack: [] });
    expect(res.exit_code).toBe(0);
    const top = res.stack[res.stack.length - 1] as unknown as { cell?: { bytes: string } };
    expect(top.cell?.bytes).toBeDefined();
    expect(readProbe(Cell.fromBase64(top.cell!.bytes))).toEqual(want);
  });
});
