/**
 * Bare @ton/sandbox as npm installs it, for the emulation benchmark (scripts/bench-emulate.ts): a process in which
 * the files this project patches (patches/*.patch, applied by patch-package to node_modules) are loaded as they
 * were published, so the baseline is what a developer running sandbox themselves gets, not sandbox sped up by
 * the gateway's own patches to @ton/core and @ton/crypto.
 *
 * The published text of each patched file is rebuilt from the installed file and its patch (each hunk's new
 * side replaced by its old side) and compiled under the file's own name, so its relative requires still resolve;
 * the process refuses to run if a patched file was loaded all the same. `setup` deploys the caller's v4 wallet on
 * a fresh Blockchain and signs one transfer per round (1 TON plus the round's number in nanotons, as the
 * benchmark's other subjects); `send` restores the snapshot and answers the time of `sendMessage` there, in ms.
 */
import { readFileSync, readdirSync, realpathSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Cell } from '@ton/core';
import type { Blockchain, BlockchainSnapshot } from '@ton/sandbox';
import { serveRpc } from '../lib/child.js';

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
      // by real path: Node loads a module by it, and node_modules may be a link (a git worktree's)
      if (file) out.set(realpathSync(file), unpatched(readFileSync(file, 'utf8'), hunks));
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
const sandbox = require('@ton/sandbox') as typeof import('@ton/sandbox');
const { WalletContractV4 } = require('@ton/ton') as typeof import('@ton/ton');
const loaded = [
  (require('@ton/core/dist/utils/crc32c.js') as { crc32c: object }).crc32c.toString().includes('TABLES'),
  (require('@ton/core/dist/boc/BitReader.js') as { BitReader: { prototype: { _preloadUint: object } } }).BitReader.prototype._preloadUint.toString().includes('accBits'),
  (require('@ton/crypto') as { sha256_sync: object }).sha256_sync.toString().includes('nodeHash'),
];
if (loaded.some(Boolean)) throw new Error('stock-sandbox: a patched file was loaded');

const TON = 1_000_000_000n;
let bc: Blockchain | undefined;
let snap: BlockchainSnapshot | undefined;
let msgs: Cell[] = [];

serveRpc(
  {
    /** the wallet (keys, id) deployed and funded, the rounds' transfers to `to` signed */
    setup: async (a: { publicKey: string; secretKey: string; walletId: number; to: string; rounds: number }) => {
      bc = await sandbox.Blockchain.create();
      const w = WalletContractV4.create({ workchain: 0, publicKey: Buffer.from(a.publicKey, 'hex'), walletId: a.walletId });
      const sw = bc.openContract(w);
      const treasury = await bc.treasury('funds');
      await treasury.send({ to: sw.address, value: 100n * TON, bounce: false, init: sw.init });
      const seqno = await sw.getSeqno();
      const to = Address.parse(a.to);
      const secretKey = Buffer.from(a.secretKey, 'hex');
      msgs = Array.from({ length: a.rounds }, (_, i) => {
        const body = w.createTransfer({ seqno, timeout: Math.floor(Date.now() / 1000) + 3600, secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to, value: TON + BigInt(i), bounce: false })] });
        return beginCell().store(storeMessage(external({ to: w.address, body }))).endCell();
      });
      snap = bc.snapshot();
    },
    /** the round's transfer on the restored snapshot: ms in `sendMessage` */
    send: async (a: { round: number }) => {
      await bc!.loadFrom(snap!);
      const t = performance.now();
      await bc!.sendMessage(msgs[a.round % msgs.length]!);
      return performance.now() - t;
    },
  },
  async () => undefined,
);
process.send!({ type: 'ready', pid: process.pid });
