/**
 * Bare @ton/sandbox as npm installs it, for the emulation benchmark: a process of its own in which the files this
 * project patches (patches/*.patch, applied by patch-package to node_modules) are loaded as they were published,
 * so the baseline is what a developer running sandbox themselves gets, not sandbox sped up by the gateway's own
 * patches to @ton/core and @ton/crypto.
 *
 * The published text of each patched file is rebuilt from the installed file and its patch (each hunk's new
 * side replaced by its old side) and compiled under the file's own name, so its relative requires still resolve.
 * The parent sends the wallet's keys and the messages' recipient; this process deploys the same v4 wallet on a
 * fresh Blockchain, signs one transfer per round (1 TON plus the round's number in nanotons, as the benchmark's
 * other subjects), and for each `{ n }` restores its snapshot and times `sendMessage` there.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The file as published: every hunk of `patch` for it undone (its + lines and context replaced by its - lines and context). */
function unpatched(current: string, hunks: string[][]): string {
  const lines = current.split('\n');
  // from the last hunk back, so the earlier hunks' line numbers still hold
  for (const hunk of [...hunks].reverse()) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(hunk[0]!);
    if (!header) throw new Error(`stock-sandbox: not a hunk header: ${hunk[0]}`);
    const body = hunk.slice(1).filter((l) => !l.startsWith('\\'));
    const newSide = body.filter((l) => !l.startsWith('-')).map((l) => l.slice(1));
    const oldSide = body.filter((l) => !l.startsWith('+')).map((l) => l.slice(1));
    const at = Number(header[2]) - 1;
    if (lines.slice(at, at + newSide.length).join('\n') !== newSide.join('\n')) throw new Error('stock-sandbox: the installed file does not match its patch');
    lines.splice(at, newSide.length, ...oldSide);
  }
  return lines.join('\n');
}

/** Installed path → published text, for every file the project's patches change. */
function publishedFiles(): Map<string, string> {
  const out = new Map<string, string>();
  // the patches of the packages sandbox runs on (@ton/core, @ton/crypto)
  for (const name of readdirSync(join(ROOT, 'patches')).filter((n) => n.startsWith('@ton+'))) {
    let file: string | undefined;
    let hunks: string[][] = [];
    const flush = () => {
      if (file) out.set(file, unpatched(readFileSync(file, 'utf8'), hunks));
      hunks = [];
    };
    for (const line of readFileSync(join(ROOT, 'patches', name), 'utf8').split('\n')) {
      if (line.startsWith('diff --git ')) {
        flush();
        file = join(ROOT, line.split(' b/')[1]!);
      } else if (line.startsWith('@@')) hunks.push([line]);
      else if (hunks.length && !line.startsWith('index ') && !line.startsWith('--- ') && !line.startsWith('+++ ')) {
        if (line === '' && hunks.at(-1)!.length > 1) continue;
        hunks.at(-1)!.push(line);
      }
    }
    flush();
  }
  return out;
}

export interface StockSandbox {
  /** the round's transfer on a restored snapshot: its time in ms */
  send(round: number): Promise<number>;
  close(): Promise<void>;
}

export async function startStockSandbox(keys: { publicKey: Buffer; secretKey: Buffer; walletId: number; to: string; rounds: number }): Promise<StockSandbox> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<number, (ms: number) => void>();
  const ready = new Promise<void>((resolveReady, reject) => {
    child.once('exit', (code) => reject(new Error(`stock-sandbox exited with ${code}`)));
    child.on('message', (m: { ready?: true; n?: number; ms?: number }) => {
      if (m.ready) return resolveReady();
      waiting.get(m.n!)?.(m.ms!);
      waiting.delete(m.n!);
    });
  });
  child.send({ publicKey: keys.publicKey.toString('hex'), secretKey: keys.secretKey.toString('hex'), walletId: keys.walletId, to: keys.to, rounds: keys.rounds });
  await ready;
  return {
    send: (n) => new Promise<number>((res) => (waiting.set(n, res), child.send({ n }))),
    close: () => new Promise<void>((res) => (child.removeAllListeners('exit'), child.once('exit', () => res()), child.disconnect())),
  };
}

async function runChild(): Promise<void> {
  // the published files, compiled in place of the patched ones before anything requires them
  const published = publishedFiles();
  const js = (Module as unknown as { _extensions: Record<string, (m: { _compile(src: string, file: string): void }, file: string) => void> })._extensions;
  const plain = js['.js']!;
  js['.js'] = (m, file) => {
    const text = published.get(file);
    if (text === undefined) return plain(m, file);
    m._compile(text, file);
  };
  const require = createRequire(join(ROOT, 'package.json'));
  const { beginCell, external, internal, SendMode, storeMessage, Address } = require('@ton/core') as typeof import('@ton/core');
  const { Blockchain } = require('@ton/sandbox') as typeof import('@ton/sandbox');
  const { WalletContractV4 } = require('@ton/ton') as typeof import('@ton/ton');
  const loaded = [
    (require('@ton/core/dist/utils/crc32c.js') as { crc32c: object }).crc32c.toString().includes('TABLES'),
    (require('@ton/core/dist/boc/BitReader.js') as { BitReader: { prototype: { _preloadUint: object } } }).BitReader.prototype._preloadUint.toString().includes('accBits'),
    (require('@ton/crypto') as { sha256_sync: object }).sha256_sync.toString().includes('nodeHash'),
  ];
  if (loaded.some(Boolean)) throw new Error('stock-sandbox: a patched file was loaded');
  const setup = await new Promise<{ publicKey: string; secretKey: string; walletId: number; to: string; rounds: number }>((res) => process.once('message', res as never));
  const TON = 1_000_000_000n;
  const bc = await Blockchain.create();
  const w = WalletContractV4.create({ workchain: 0, publicKey: Buffer.from(setup.publicKey, 'hex'), walletId: setup.walletId });
  const sw = bc.openContract(w);
  const treasury = await bc.treasury('funds');
  await treasury.send({ to: sw.address, value: 100n * TON, bounce: false, init: sw.init });
  const seqno = await sw.getSeqno();
  const to = Address.parse(setup.to);
  const secretKey = Buffer.from(setup.secretKey, 'hex');
  const msgs = Array.from({ length: setup.rounds }, (_, i) => {
    const body = w.createTransfer({ seqno, timeout: Math.floor(Date.now() / 1000) + 3600, secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to, value: TON + BigInt(i), bounce: false })] });
    return beginCell().store(storeMessage(external({ to: w.address, body }))).endCell();
  });
  const snap = bc.snapshot();
  process.on('message', async (m: { n: number }) => {
    await bc.loadFrom(snap);
    const t = performance.now();
    await bc.sendMessage(msgs[m.n % msgs.length]!);
    process.send!({ n: m.n, ms: performance.now() - t });
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({ ready: true });
}

if (process.argv.includes('--child')) await runChild();
