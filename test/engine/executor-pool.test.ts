/**
 * Issue 14: no input reaching the emulator can disable execution for anyone else. The chain is driven
 * directly (below the REST input limits), so the emulator really sees the hostile input; after each attempt
 * a signed transfer executes and seals, a get-method answers and the faucet pays.
 */
import { copyFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Address, beginCell, Cell, contractAddress, external, internal, storeMessage, toNano, type StateInit, type TupleItem } from '@ton/core';
import { defaultConfig, type ExecutorGetMethodArgs } from '@ton/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import type { V2Api } from '../../src/api/v2.js';
import { loadConfig, type Config } from '../../src/config.js';
import { startGateway, type Gateway } from '../../src/gateway.js';
import { executorRestarts } from '../../src/observe/metrics.js';
import { Chain, EXT_NOT_ACCEPTED } from '../../src/sources/localnet/chain/chain.js';
import { defaultWorkerScript, ExecutorFailure, ExecutorPool } from '../../src/engine/executor-pool.js';
import { deriveWalletKeys, genesisWallets, runGenesis, signedTransfer, type KeyedWallet } from '../../src/sources/localnet/chain/genesis.js';
import { localV2Api } from '../../src/sources/localnet/v2/index.js';

/** A body of `n` cells, each holding nothing but a reference to the next. */
function cellChain(n: number): Cell {
  let c = beginCell().endCell();
  for (let i = 1; i < n; i++) c = beginCell().storeRef(c).endCell();
  return c;
}

/**
 * A contract that accepts any internal message (IFNOTRET on selector 0) and loops forever in every
 * get-method (AGAINEND on the rest of its code, which is empty), until the gas limit ends it.
 */
const LOOP: StateInit = { code: beginCell().storeUint(0xddeb, 16).endCell(), data: beginCell().endCell() };
const loopAddress = contractAddress(0, LOOP);

const restarts = async (reason: string): Promise<number> =>
  (await executorRestarts.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

/** `w`'s signed transfer deploying the looping contract. */
async function deployLoop(v2: V2Api, w: KeyedWallet): Promise<Cell> {
  const r = await v2.runGetMethod({ address: w.contract.address, method: 'seqno', stack: [] });
  return signedTransfer(w, Number(r.stack[0]![1]), [internal({ to: loopAddress, value: toNano('1'), bounce: false, init: LOOP })], Math.floor(Date.now() / 1000) + 60);
}

/** The chain of LocalChain.create, kept at hand so messages can go straight to `send`. */
async function genesisChain(seed: string, executor?: Parameters<typeof Chain.create>[3]): Promise<{ chain: Chain; wallets: KeyedWallet[] }> {
  const [chain, keys] = await Promise.all([Chain.create(seed, 0, undefined, executor), deriveWalletKeys(seed)]);
  const wallets = genesisWallets(keys, chain.globalId);
  await runGenesis(chain, wallets);
  return { chain, wallets };
}

describe('a 1,000-cell chain body in an external message', () => {
  let chain: Chain;
  let v2: V2Api;
  let alice: KeyedWallet;
  let bob: KeyedWallet;

  beforeAll(async () => {
    ({ chain, wallets: [alice, bob] } = (await genesisChain('isolation-trap')) as { chain: Chain; wallets: [KeyedWallet, KeyedWallet] });
    v2 = localV2Api(chain);
  });
  afterAll(() => chain?.close());

  const seqno = async (w: KeyedWallet): Promise<number> => {
    const r = await v2.runGetMethod({ address: w.contract.address, method: 'seqno', stack: [] });
    expect(r.exit_code).toBe(0);
    return Number(r.stack[0]![1]);
  };

  it('is refused with the lite server text, and the chain keeps executing, answering and paying', async () => {
    const hostile = beginCell()
      .store(storeMessage(external({ to: alice.contract.address, body: cellChain(1000) })))
      .endCell();
    for (let round = 0; round < 3; round++) {
      const traps = await restarts('trap');
      const e = await rejection(chain.send(hostile));
      expect(e.status).toBe(500);
      expect(e.message.startsWith(EXT_NOT_ACCEPTED)).toBe(true);
      // the emulator really trapped on it (memory access out of bounds), and that worker was replaced
      expect(await restarts('trap')).toBe(traps + 1);

      const n = await seqno(alice);
      const before = chain.store.lastMc.seqno;
      const transfer = signedTransfer(alice, n, [internal({ to: bob.contract.address, value: toNano('0.01'), bounce: false })], Math.floor(Date.now() / 1000) + 60);
      const recs = await chain.send(transfer);
      expect(recs.length).toBeGreaterThanOrEqual(2);
      // sealed at once (interval 0), the wallet's seqno moved on
      expect(chain.store.lastMc.seqno).toBeGreaterThan(before);
      expect(recs[0]!.block).toBeDefined();
      expect(await seqno(alice)).toBe(n + 1);

      const credited = await chain.faucet(bob.contract.address, toNano('1'));
      expect(credited.account.equals(bob.contract.address)).toBe(true);
    }
    expect(chain.executionProblem()).toBeNull();
  });
});

describe('a get-method running past the wall-clock bound', () => {
  let chain: Chain;
  let v2: V2Api;
  let alice: KeyedWallet;

  beforeAll(async () => {
    ({ chain, wallets: [alice] } = (await genesisChain('isolation-timeout', { callTimeoutMs: 500 })) as { chain: Chain; wallets: [KeyedWallet] });
    v2 = localV2Api(chain);
    await chain.send(await deployLoop(v2, alice));
  });
  afterAll(() => chain?.close());

  it('answers 504, replaces the worker and counts it; the next get-method and transfer run', async () => {
    expect(await v2.getAddressState({ address: loopAddress })).toBe('active');
    const timeouts = await restarts('timeout');
    const started = Date.now();
    const e = await rejection(v2.runGetMethod({ address: loopAddress, method: 'forever', stack: [] }));
    expect(e.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await restarts('timeout')).toBe(timeouts + 1);

    const r = await v2.runGetMethod({ address: alice.contract.address, method: 'seqno', stack: [] });
    expect(r.exit_code).toBe(0);
    const transfer = signedTransfer(alice, Number(r.stack[0]![1]), [internal({ to: loopAddress, value: toNano('0.01'), bounce: false })], Math.floor(Date.now() / 1000) + 60);
    expect((await chain.send(transfer)).length).toBeGreaterThanOrEqual(2);
  });
});

describe('ExecutorPool', () => {
  /** A get-method run of `code` with no arguments. */
  const getArgs = (code: Cell, gasLimit = 1_000_000n): ExecutorGetMethodArgs => ({
    code,
    data: beginCell().endCell(),
    methodId: 85143,
    stack: [],
    config: defaultConfig,
    verbosity: 'short',
    address: loopAddress,
    unixTime: 1_800_000_000,
    balance: toNano('1'),
    randomSeed: Buffer.alloc(32),
    gasLimit,
    debugEnabled: false,
  });
  const empty = beginCell().endCell();

  it('answers reads while the execution lane is busy', async () => {
    const pool = await ExecutorPool.create({ callTimeoutMs: 3_000 });
    try {
      let longDone = 0;
      const long = pool.execution.runGetMethod(getArgs(LOOP.code!, 1_000_000_000_000n)).then(
        () => (longDone = Date.now()),
        (e: unknown) => {
          longDone = Date.now();
          return e;
        },
      );
      await new Promise((r) => setTimeout(r, 100));
      const read = await pool.reads.runGetMethod(getArgs(empty));
      const readDone = Date.now();
      expect(read.output.success).toBe(true);
      expect(longDone).toBe(0);
      const e = await long;
      expect(e).toBeInstanceOf(ExecutorFailure);
      expect((e as ExecutorFailure).reason).toBe('timeout');
      expect(longDone).toBeGreaterThan(readDone);
      expect(pool.problem()).toBeNull();
    } finally {
      await pool.close();
    }
  });

  it('refuses a call it cannot encode without touching the worker', async () => {
    const pool = await ExecutorPool.create();
    try {
      let deep: TupleItem = { type: 'null' };
      for (let i = 0; i < 100_000; i++) deep = { type: 'tuple', items: [deep] };
      const e = await pool.reads.runGetMethod({ ...getArgs(empty), stack: [deep] }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(ExecutorFailure);
      expect((e as ExecutorFailure).reason).toBe('input');
      expect((await pool.reads.runGetMethod(getArgs(empty))).output.success).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('replaces a worker whose emulator memory is above the bound after a call, keeping the answer', async () => {
    // any emulator's memory is above 1 MiB: every call is answered, then its worker replaced
    const pool = await ExecutorPool.create({ wasmMemoryLimitMb: 1 });
    try {
      const before = await restarts('oom');
      for (let i = 0; i < 2; i++) expect((await pool.reads.runGetMethod(getArgs(empty))).output.success).toBe(true);
      expect(await restarts('oom')).toBe(before + 2);
    } finally {
      await pool.close();
    }
  });
});

describe('/health while no emulator worker can start', () => {
  let gw: Gateway;
  let dir: string;
  let script: string;

  beforeAll(async () => {
    // the workers load from a copy of their entry that the test can take away and put back
    dir = mkdtempSync(join(tmpdir(), 'executor-isolation-'));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    script = join(dir, 'worker.ts');
    writeFileSync(join(dir, 'entry.ts'), `import ${JSON.stringify(defaultWorkerScript().href)};\n`);
    copyFileSync(join(dir, 'entry.ts'), script);
    const base = loadConfig([], {}) as Config;
    gw = await startGateway(
      { ...base, port: 0, host: '127.0.0.1', quiet: true, blockInterval: 0, seed: 'isolation-health' },
      { executor: { callTimeoutMs: 500, workerScript: pathToFileURL(script), restartDelayMs: 100 } },
    );
    const deploy = await deployLoop(gw.chain!.v2, gw.chain!.keyedWallets()[0]!);
    await gw.chain!.v2.sendBoc({ boc: deploy.toBoc() });
    // the streaming feed reads the new account's metadata on commit and seal: get-methods of the loop
    // contract, each overrunning and replacing the reads worker; they must be over before the script is
    // taken away, or the replacement of the last one has nothing to load and the test's own call gets 503
    let seen = await restarts('timeout');
    for (let quiet = 0; quiet < 1_500; quiet += 100) {
      await new Promise((r) => setTimeout(r, 100));
      const now = await restarts('timeout');
      if (now !== seen) [seen, quiet] = [now, 0];
    }
  });
  afterAll(async () => {
    await gw?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${gw.url}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('answers 503 with the reason, then 200 once a worker starts again', async () => {
    expect((await get('/health')).status).toBe(200);
    // the replacement of the worker the overrun ends has nothing to load
    renameSync(script, `${script}.away`);
    const res = await fetch(`${gw.url}/api/v2/runGetMethod`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: Address.normalize(loopAddress), method: 'forever', stack: [] }),
    });
    // 504: this call's overrun ended the worker. 503: a streaming-feed read of the loop contract overran first
    // (more likely on a loaded machine) and its replacement already found nothing to load; either way no worker
    // can start from here on, which is what the rest checks
    expect([503, 504]).toContain(res.status);

    let health = await get('/health');
    for (let i = 0; i < 100 && health.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      health = await get('/health');
    }
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'unavailable' });
    expect(String(health.body.error)).toContain('no emulator worker could be started');
    const ready = await get('/ready');
    expect(ready.status).toBe(503);
    expect(String(ready.body.error)).toContain('no emulator worker could be started');
    const seqno = await fetch(`${gw.url}/api/v2/runGetMethod`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: gw.chain!.wallets()[0]!.address, method: 'seqno', stack: [] }),
    });
    expect(seqno.status).toBe(503);
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).toMatch(/ton_gateway_localnet_executor_restarts_total\{reason="timeout"\} [1-9]/);

    renameSync(`${script}.away`, script);
    for (let i = 0; i < 200 && health.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      health = await get('/health');
    }
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect((await get('/ready')).status).toBe(200);
  });
});
