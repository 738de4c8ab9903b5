/**
 * Emulation latency of a signed wallet transfer: the gateway's Emulate API on the local chain (in process, and
 * over HTTP on loopback) against the same kind of message sent on bare @ton/sandbox (a Blockchain holding the
 * same wallet, restored from a snapshot before each run, so every run starts from the same state). Every call
 * sends another amount, so no answer is a copy of an earlier one.
 *
 *   npx tsx scripts/bench-emulate.ts [runs] [--json]
 *
 * The three take turns, one call each per round. Prints the median and p90 of each, in ms, and the ratio
 * sandbox / gateway (above 1: the gateway is faster); beside them the CPU time of every thread of this process
 * per call, which a loaded machine disturbs less than the wall clock. The HTTP caller runs in a process of its
 * own (bench/procs/http-client.ts, undici on one kept-alive connection) and times each request itself, as a
 * remote caller would see it.
 *
 * Bare sandbox is timed twice: in this process (sharing the @ton/core and @ton/crypto this project patches,
 * patches/), and in a process of its own on those packages as npm publishes them (bench/procs/stock-sandbox.ts),
 * which is what a developer running sandbox themselves gets. Its CPU column there is not measured.
 */
import { beginCell, Cell, external, internal, SendMode, storeMessage } from '@ton/core';
import { Blockchain } from '@ton/sandbox';
import { WalletContractV4 } from '@ton/ton';
import { loadConfig, type Config } from '../src/config.js';
import { startGateway } from '../src/gateway.js';
import { spawnChild } from '../bench/lib/child.js';

const positional = process.argv.slice(2).filter((a) => a !== '--json');
const runs = Number(positional[0] ?? 200);
const TON = 1_000_000_000n;

function stats(ms: number[]): { median: number; p90: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, p90: s[Math.floor(s.length * 0.9)]! };
}

interface Subject {
  name: string;
  /** the round's number; resolves to the call's time in ms when it was timed elsewhere (another process) */
  run: (round: number) => Promise<unknown>;
  /** before each run, not timed */
  before?: () => Promise<unknown>;
  ms: number[];
  /** CPU time of all threads of this process inside the timed runs, ms */
  cpu: number;
}

/**
 * Runs the subjects in turn, one call each per round, so that a change of the machine's load reaches all of
 * them alike; the first ten rounds warm up the emulator and the JIT.
 */
async function rounds(n: number, subjects: Subject[]): Promise<void> {
  for (let i = 0; i < n + 10; i++) {
    for (const s of subjects) {
      await s.before?.();
      const c = process.cpuUsage();
      const t = performance.now();
      const measured = await s.run(i);
      // a subject timed elsewhere (the HTTP client's own process) returns its time
      const ms = typeof measured === 'number' ? measured : performance.now() - t;
      const d = process.cpuUsage(c);
      if (i < 10) continue;
      s.ms.push(ms);
      s.cpu += (d.user + d.system) / 1000 / n;
    }
  }
}

const subject = (name: string, run: (round: number) => Promise<unknown>, before?: () => Promise<unknown>): Subject => ({ name, run, ...(before ? { before } : {}), ms: [], cpu: 0 });

const gw = await startGateway({ ...(loadConfig([], {}) as Config), port: 0, quiet: true, blockInterval: 0 });
try {
  const chain = gw.chain!;
  const alice = chain.keyedWallets()[0]!;
  const wallet = alice.contract as WalletContractV4;
  const bob = chain.keyedWallets()[1]!.contract.address;
  const seqnoOf = async (): Promise<number> => {
    const st = chain.store.accountState(wallet.address, chain.store.lastMc.seqno)!.shardAccount.account!.storage.state;
    if (st.type !== 'active') throw new Error('alice is not active');
    return st.state.data!.beginParse().loadUint(32);
  };
  // a different amount in every call (1 TON + a call's number in nanotons): no emulation repeats an earlier one
  const signed = (seqno: number, round: number, walletId?: WalletContractV4): Cell => {
    const w = walletId ?? wallet;
    const value = TON + BigInt(round);
    const body = w.createTransfer({ seqno, timeout: Math.floor(Date.now() / 1000) + 3600, secretKey: alice.keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to: bob, value, bounce: false })] });
    return beginCell().store(storeMessage(external({ to: w.address, body }))).endCell();
  };
  const aliceSeqno = await seqnoOf();
  // in process the even ones, over HTTP the odd ones
  const bocs = Array.from({ length: 2 * (runs + 10) }, (_, i) => signed(aliceSeqno, i).toBoc().toString('base64'));

  // bare sandbox: the same wallet (same keys and wallet id), funded, deployed, then the same transfer
  const bc = await Blockchain.create();
  const sw = bc.openContract(WalletContractV4.create({ workchain: 0, publicKey: alice.keyPair.publicKey, walletId: wallet.walletId }));
  const treasury = await bc.treasury('funds');
  await treasury.send({ to: sw.address, value: 100n * TON, bounce: false, init: sw.init });
  const seqno = await sw.getSeqno();
  const msgs = Array.from({ length: runs + 10 }, (_, i) => signed(seqno, i, sw as unknown as WalletContractV4));
  const snap = bc.snapshot();

  const inProcess = subject('gateway Emulate API, in process', (i) => chain.emulate.emulateTrace({ boc: bocs[2 * i]! }));
  // the caller in a process of its own, timing each request from its start to the answer's last byte
  const client = await spawnChild('http-client');
  const overHttp = subject('gateway Emulate API, HTTP loopback', async (i) => {
    const r = await client.call<{ ms: number; status: number }>('post', { url: `${gw.url}/api/emulate/v1/emulateTrace`, body: JSON.stringify({ boc: bocs[2 * i + 1]! }) });
    if (r.status !== 200) throw new Error(`HTTP ${r.status}`);
    return r.ms;
  });
  const sandbox = subject(
    'bare @ton/sandbox sendMessage',
    (i) => bc.sendMessage(msgs[i]!),
    () => bc.loadFrom(snap),
  );
  // sandbox as npm installs it: its own process, @ton/core and @ton/crypto without this project's patches
  const stock = await spawnChild('stock-sandbox');
  await stock.call('setup', { publicKey: alice.keyPair.publicKey.toString('hex'), secretKey: alice.keyPair.secretKey.toString('hex'), walletId: wallet.walletId, to: bob.toString(), rounds: runs + 10 });
  const stockSandbox = subject('bare @ton/sandbox, npm packages', (i) => stock.call<number>('send', { round: i }));
  await rounds(runs, [inProcess, overHttp, sandbox, stockSandbox]);
  await stock.stop();

  const row = (x: Subject) => {
    const s = stats(x.ms);
    // the npm-packages sandbox runs in its own process: this process's CPU says nothing of it
    const cpu = x === stockSandbox ? '' : `   CPU ${x.cpu.toFixed(2)} ms`;
    console.log(`${x.name.padEnd(34)} median ${s.median.toFixed(2)} ms   p90 ${s.p90.toFixed(2)} ms${cpu}`);
    return s;
  };
  console.log(`signed v4 TON transfer (2 transactions), ${runs} rounds`);
  const g = row(inProcess);
  const h = row(overHttp);
  const b = row(sandbox);
  const st = row(stockSandbox);
  console.log(`ratio sandbox / gateway: in process ${(b.median / g.median).toFixed(2)}, over HTTP ${(b.median / h.median).toFixed(2)}`);
  console.log(`ratio sandbox as npm installs it / gateway: in process ${(st.median / g.median).toFixed(2)}, over HTTP ${(st.median / h.median).toFixed(2)}`);
  console.log(`CPU ratio sandbox / gateway: in process ${(sandbox.cpu / inProcess.cpu).toFixed(2)}, over HTTP ${(sandbox.cpu / overHttp.cpu).toFixed(2)} (the HTTP client's CPU is its own process's, not counted)`);
  // the last line, for npm run bench:check (bench/check.ts)
  if (process.argv.includes('--json')) console.log(JSON.stringify({ runs, inProcess: g, overHttp: h, sandbox: b, npmSandbox: st, cpuMs: { inProcess: inProcess.cpu, overHttp: overHttp.cpu, sandbox: sandbox.cpu } }));
  await client.stop();
} finally {
  await gw.close();
}
