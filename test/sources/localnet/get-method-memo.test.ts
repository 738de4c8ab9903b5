/**
 * Get-method answers remembered for identical calls (src/sources/localnet/chain/get-method-memo.ts): the emulator
 * behind is a counting stand-in here, since what is tested is which calls reach it; the local chain's own tests run
 * the real one through the same wrapper.
 */
import { Address, beginCell, type TupleItem } from '@ton/core';
import type { ExecutorGetMethodArgs, ExecutorGetMethodResult, IExecutor } from '@ton/sandbox';
import { describe, expect, it } from 'vitest';
import { rememberGetMethods } from '../../../src/sources/localnet/chain/get-method-memo.js';

const answer = (stack: string, success = true): ExecutorGetMethodResult => ({
  output: success ? { success: true, stack, gas_used: '100', vm_exit_code: 0, vm_log: '', missing_library: null } : { success: false, error: 'bad config' },
  logs: '',
  debugLogs: '',
} as ExecutorGetMethodResult);

function counting(results: () => Promise<ExecutorGetMethodResult>) {
  const calls: ExecutorGetMethodArgs[] = [];
  const inner: IExecutor = {
    runGetMethod: (args) => {
      calls.push(args);
      return results();
    },
    runTransaction: () => Promise.reject(new Error('not here')),
    runTickTock: () => Promise.reject(new Error('not here')),
  };
  return { calls, memo: rememberGetMethods(inner) };
}

const prevBlocksInfo = Object.freeze({ lastMcBlocks: [], prevKeyBlock: { workchain: -1, shard: 0n, seqno: 0, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) } });
const args = (over: Partial<ExecutorGetMethodArgs> = {}): ExecutorGetMethodArgs => ({
  code: beginCell().storeUint(1, 8).endCell(),
  data: beginCell().storeUint(7, 32).endCell(),
  methodId: 85143,
  stack: [],
  config: 'config-boc',
  verbosity: 'short',
  address: Address.parseRaw(`0:${'11'.repeat(32)}`),
  unixTime: 1_700_000_000,
  balance: 10n,
  randomSeed: Buffer.alloc(32),
  gasLimit: 1_000_000n,
  debugEnabled: false,
  prevBlocksInfo,
  ...over,
});

describe('get-method memo', () => {
  it('runs an identical call once, and any call that differs in what the emulator sees again', async () => {
    let n = 0;
    const { calls, memo } = counting(async () => answer(`stack ${n++}`));
    const first = await memo.runGetMethod(args());
    // equal cells built anew, equal stack values: the same call
    expect(await memo.runGetMethod(args({ stack: [{ type: 'int', value: 5n }] }))).not.toBe(first);
    expect(await memo.runGetMethod(args())).toBe(first);
    expect(await memo.runGetMethod(args({ stack: [{ type: 'int', value: 5n }] }))).toEqual(answer('stack 1'));
    expect(calls).toHaveLength(2);

    const differing: Partial<ExecutorGetMethodArgs>[] = [
      { data: beginCell().storeUint(8, 32).endCell() },
      { code: beginCell().storeUint(2, 8).endCell() },
      { methodId: 1 },
      { unixTime: 1_700_000_001 },
      { balance: 11n },
      { address: Address.parseRaw(`0:${'22'.repeat(32)}`) },
      { config: 'another-config' },
      { libs: beginCell().endCell() },
      { prevBlocksInfo: Object.freeze({ ...prevBlocksInfo }) },
      { stack: [{ type: 'cell', cell: beginCell().storeUint(1, 1).endCell() }] },
      { stack: [{ type: 'slice', cell: beginCell().storeUint(1, 1).endCell() }] },
      { stack: [{ type: 'tuple', items: [{ type: 'int', value: 5n }] } as TupleItem] },
      { gasLimit: 1n },
    ];
    for (const over of differing) await memo.runGetMethod(args(over));
    expect(calls).toHaveLength(2 + differing.length);
  });

  it('shares a run in flight between identical calls', async () => {
    let release!: (r: ExecutorGetMethodResult) => void;
    const { calls, memo } = counting(() => new Promise((r) => (release = r)));
    const both = Promise.all([memo.runGetMethod(args()), memo.runGetMethod(args())]);
    release(answer('shared'));
    const [a, b] = await both;
    expect(a).toBe(b);
    expect(calls).toHaveLength(1);
  });

  it('keeps neither a failed run nor an emulator error', async () => {
    let outcome: 'throw' | 'error' | 'ok' = 'throw';
    const { calls, memo } = counting(async () => {
      if (outcome === 'throw') throw new Error('worker died');
      return answer('s', outcome === 'ok');
    });
    await expect(memo.runGetMethod(args())).rejects.toThrow('worker died');
    outcome = 'error';
    expect((await memo.runGetMethod(args())).output.success).toBe(false);
    outcome = 'ok';
    expect((await memo.runGetMethod(args())).output.success).toBe(true);
    await memo.runGetMethod(args());
    expect(calls).toHaveLength(3);
  });
});
