/**
 * Issue 41's attacks on live events, run as an attacker would run them: the gateway as the CLI in its own process
 * (so its RSS is the server's alone), the probe and each attacker in processes of their own
 * (test/helpers/live-attackers.ts), the test only starting them and reading what they print.
 *
 * What an attack is judged by: the server stays up, its RSS grows by less than 512 MB over what it was before,
 * and the probe (a v2 read and a small GraphQL query every 200 ms) never waits 1 s or more. That last bound is
 * a time, which a loaded machine can break without the gateway's fault, so the probe is first run alone for a
 * while on the same machine: the bound is 1 s plus the slowest answer it got then (its own baseline), which on
 * an idle machine is a few milliseconds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Address, internal } from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { WalletContractV5R1 } from '@ton/ton';
import { signedTransfer } from '../../src/sources/localnet/chain/genesis.js';
import { waitFor } from './wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ATTACKERS = fileURLToPath(new URL('./live-attackers.ts', import.meta.url));

export const RSS_GROWTH_MB = 512;
export const PROBE_MS = 1_000;

export interface Cli {
  url: string;
  proc: ChildProcess;
  /** what the server has logged (LOG_LEVEL=warn: its warnings) */
  logs(): string;
  rssMb(): number;
  /** CPU seconds the server has used (user and system) */
  cpuS(): number;
  up(): boolean;
  close(): Promise<void>;
}

/** The CLI on the local chain, on a free port, its warnings logged. */
export async function startCli(args: string[] = [], env: Record<string, string> = {}): Promise<Cli> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', '0', '--quiet', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let logs = '';
  proc.stdout!.setEncoding('utf8').on('data', (c: string) => (logs += c));
  const up = () => proc.exitCode === null && proc.signalCode === null;
  const url = await waitFor(async () => /Listening on (http:\/\/\S+)/.exec(logs)?.[1], 60_000);
  await waitFor(async () => ((await fetch(`${url}/health`)).status === 200 ? true : undefined), 90_000, 200);
  return {
    url,
    proc,
    logs: () => logs,
    up,
    rssMb: () => {
      if (!up()) return 0;
      try {
        return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))![1]) / 1024;
      } catch {
        return 0;
      }
    },
    cpuS: () => {
      try {
        const fields = readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        // utime and stime, fields 14 and 15 of the whole line, in clock ticks (100 a second on Linux)
        return (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        return 0;
      }
    },
    async close() {
      if (!up()) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

/** How many times the server has logged `what`. */
export const logged = (cli: Cli, what: string): number => cli.logs().split(what).length - 1;

/** One of test/helpers/live-attackers.ts in its own process. */
export class Attacker {
  readonly lines: Record<string, any>[] = [];
  private readonly proc: ChildProcess;
  readonly exited: Promise<void>;

  constructor(name: string, url: string, opts: object = {}) {
    this.proc = spawn(process.execPath, ['--import', 'tsx', ATTACKERS, name, url, JSON.stringify(opts)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    let rest = '';
    this.proc.stdout!.setEncoding('utf8').on('data', (c: string) => {
      const parts = (rest + c).split('\n');
      rest = parts.pop()!;
      for (const p of parts) if (p.trim()) this.lines.push(JSON.parse(p) as Record<string, any>);
    });
    this.exited = new Promise((resolve) => this.proc.once('exit', () => resolve()));
  }

  /** The first line of type `t`, once printed. */
  line(t: string, ms = 60_000): Promise<Record<string, any>> {
    return waitFor(async () => {
      const l = this.lines.find((x) => x.t === t);
      if (l) return l;
      if (this.lines.some((x) => x.t === 'error')) throw new Error(`attacker failed: ${JSON.stringify(this.lines.find((x) => x.t === 'error'))}`);
      return undefined;
    }, ms, 20);
  }

  tell(command: string): void {
    this.proc.stdin!.write(`${command}\n`);
  }

  /** Tells it to stop; its last line. */
  async stop(ms = 60_000): Promise<Record<string, any>> {
    this.tell('stop');
    const done = await this.line('done', ms);
    await this.exited;
    return done;
  }

  kill(): void {
    if (this.proc.exitCode === null) this.proc.kill('SIGKILL');
  }
}

export interface Figures {
  /** the probe's slowest answer while the attack ran */
  slowestMs: number;
  /** the bound it was held to: PROBE_MS plus its slowest answer with no attack */
  boundMs: number;
  growthMb: number;
  /** how long the attack and the probe's last answers took */
  seconds: number;
  /** one line for the log */
  summary: string;
}

/** The probe's answers: their latencies (v2 and GraphQL), and the ones that failed. */
function answers(lines: Record<string, any>[]): { ms: number[]; failures: string[] } {
  const probes = lines.filter((l) => l.t === 'probe');
  return {
    ms: probes.flatMap((l) => [l.v2, l.gql].filter((x): x is number => typeof x === 'number')),
    failures: probes.filter((l) => l.fail).map((l) => `${new Date(l.at).toISOString()} ${l.fail}`),
  };
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? 0;
};

/** The probe alone for `ms`: its slowest answer, the baseline of the bound. */
export async function probeBaseline(cli: Cli, ms = 3_000): Promise<number> {
  const probe = new Attacker('probe', cli.url);
  // its first answers pay for the probe's own start (its HTTP client loading)
  await waitFor(async () => (probe.lines.filter((l) => l.t === 'probe').length >= 3 ? true : undefined), 30_000, 20);
  const skip = probe.lines.length;
  await new Promise((r) => setTimeout(r, ms));
  await probe.stop();
  const { ms: latencies } = answers(probe.lines.slice(skip));
  return Math.max(0, ...latencies);
}

/**
 * Runs `attack` while the probe asks and the server's RSS is sampled; returns the figures. Every probe answer must
 * be a good one and the server must still be up.
 */
export async function underAttack(cli: Cli, baselineMs: number, attack: () => Promise<void>): Promise<Figures> {
  const before = cli.rssMb();
  const cpuBefore = cli.cpuS();
  const started = performance.now();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, cli.rssMb())), 100);
  const probe = new Attacker('probe', cli.url);
  await waitFor(async () => (probe.lines.filter((l) => l.t === 'probe').length >= 3 ? true : undefined), 30_000, 20);
  const skip = probe.lines.length;
  try {
    await attack();
    // at least one more answer, asked after the attack
    const asked = probe.lines.length;
    await waitFor(async () => (probe.lines.length > asked + 1 ? true : undefined), 30_000, 20);
  } finally {
    clearInterval(sampler);
    await probe.stop();
  }
  peak = Math.max(peak, cli.rssMb());
  const cpu = cli.cpuS() - cpuBefore;
  const seconds = (performance.now() - started) / 1000;
  const { ms, failures } = answers(probe.lines.slice(skip));
  const slowestMs = Math.max(0, ...ms);
  const boundMs = PROBE_MS + baselineMs;
  const summary =
    `probe: ${ms.length} answers, p50 ${quantile(ms, 0.5).toFixed(0)} ms, p99 ${quantile(ms, 0.99).toFixed(0)} ms, ` +
    `slowest ${slowestMs.toFixed(0)} ms (bound ${boundMs.toFixed(0)} ms), ${failures.length} failed; RSS ${before.toFixed(0)} -> ${peak.toFixed(0)} MB; ` +
    `server CPU ${cpu.toFixed(1)} s in ${seconds.toFixed(1)} s`;
  if (failures.length) throw new Error(`the probe failed during the attack (${summary}): ${failures.slice(0, 5).join('; ')}`);
  if (!cli.up()) throw new Error(`the server died during the attack (${summary})`);
  return { slowestMs, boundMs, growthMb: peak - before, seconds, summary };
}

/** A genesis wallet of the chain at `url`, signing transfers of up to 255 messages (a v5r1 wallet: carol, dave). */
export async function fanOutWallet(url: string, name = 'carol'): Promise<{ address: string; send(to: string[], value?: bigint): Promise<void> }> {
  const wallets = (await (await fetch(`${url}/localnet/wallets`)).json()) as { name: string; address: string; mnemonic: string[] }[];
  const w = wallets.find((x) => x.name === name)!;
  const keyPair = await mnemonicToPrivateKey(w.mnemonic);
  // the wallet id carries the chain's global id: the one that gives the genesis address
  const contract = [-239, -3, -217, 0]
    .map((networkGlobalId) => WalletContractV5R1.create({ publicKey: keyPair.publicKey, walletId: { networkGlobalId } }))
    .find((c) => c.address.toRawString().toUpperCase() === w.address.toUpperCase())!;
  if (!contract) throw new Error(`cannot rebuild ${name}'s wallet`);
  return {
    address: w.address.toUpperCase(),
    async send(to, value = 10_000_000n) {
      const info = (await (await fetch(`${url}/api/v2/getWalletInformation?address=${w.address}`)).json()) as { result: { seqno: number } };
      const messages = to.map((a) => internal({ to: Address.parse(a), value, bounce: false }));
      const boc = signedTransfer({ keyPair, contract }, info.result.seqno, messages, Math.floor(Date.now() / 1000) + 600).toBoc().toString('base64');
      const res = await fetch(`${url}/api/v2/sendBoc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc }) });
      if (res.status !== 200) throw new Error(`sendBoc: ${res.status} ${await res.text()}`);
      // sealed: the next transfer is signed with the next seqno
      await waitFor(async () => {
        const now = (await (await fetch(`${url}/api/v2/getWalletInformation?address=${w.address}`)).json()) as { result: { seqno: number } };
        return now.result.seqno > info.result.seqno ? true : undefined;
      }, 60_000, 100);
    },
  };
}

/** `n` addresses in raw form made from a seed: the same for the same seed. */
export function seededAddresses(seed: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `0:${createHash('sha256').update(`${seed}:${i}`).digest('hex').toUpperCase()}`);
}
