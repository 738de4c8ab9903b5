/**
 * Issue 14's hostile inputs, each sent repeatedly over real HTTP to the CLI running the local chain in its own
 * process (so its RSS is the server's alone): each is refused with a documented 4xx naming the limit, the chain
 * then still takes a signed wallet transfer and runs a get-method, and the process stays under the memory bound
 * docs/operations.md states (Robustness and bounds). In upstream mode the same inputs are refused the same way
 * and never forwarded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Address, Cell, SendMode, beginCell, external, internal, storeMessage, toNano, type Builder } from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenesisWallet } from '../../src/api/localnet.js';
import { CHAIN_SIZE_LIMITS, NODE_DEFAULT_SIZE_LIMITS, sizeLimitsOf } from '../../src/model/limits.js';
import { fetchWallets, waitFor } from '../helpers/gateway.js';
import { startUpstreamGateway } from '../sources/upstream/helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** docs/operations.md, Robustness and bounds: the gateway process's resident set, local chain included, never passes this */
const RSS_BOUND_MB = 1024;
/** how often each input is sent */
const REPEAT = 5;

let proc: ChildProcess;
let url: string;
let wallets: GenesisWallet[];
let client: TonClient;

beforeAll(async () => {
  proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', '0', '--quiet', '--block-interval', '200'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  url = await waitFor(async () => /Listening on (http:\/\/\S+)/.exec(out)?.[1], 30_000);
  await waitFor(async () => ((await fetch(`${url}/health`)).status === 200 ? true : undefined), 90_000, 200);
  wallets = await fetchWallets(url);
  client = new TonClient({ endpoint: `${url}/api/v2/jsonRPC` });
}, 120_000);
afterAll(() => {
  if (proc && proc.exitCode === null) proc.kill('SIGKILL');
});

const rssMb = (): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'));
  return Number(m![1]) / 1024;
};

const v4 = () => wallets.find((w) => w.version === 'v4r2')!;

/**
 * A POST, asked once: an oversized body is answered 413 before it is read, and the server reads and discards the
 * rest (a bounded lingering close), so a client still writing gets the answer, not EPIPE.
 */
async function post(path: string, body: unknown): Promise<{ status: number; json: any }> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  return { status: res.status, json: await res.json() };
}

/** A chain of `n` cells, each holding a reference to the next. */
function chain(n: number): Cell {
  let c = beginCell().storeUint(0, 8).endCell();
  for (let i = 1; i < n; i++) c = beginCell().storeUint(i & 0xff, 8).storeRef(c).endCell();
  return c;
}

/** A tree of `n` distinct cells, four references each. */
function fanOut(n: number): Cell {
  const level: Cell[] = Array.from({ length: n }, (_, i) => beginCell().storeUint(i, 32).endCell());
  let made = n;
  while (level.length > 1) {
    const refs = level.splice(0, 4);
    const b: Builder = beginCell().storeUint(made++, 32);
    for (const r of refs) b.storeRef(r);
    level.push(b.endCell());
  }
  return level[0]!;
}

const extMessage = (to: string, body: Cell): string =>
  beginCell().store(storeMessage(external({ to: Address.parse(to), body }))).endCell().toBoc().toString('base64');

/** A normal signed transfer from the v4 genesis wallet lands, and its seqno get-method answers. */
async function chainStillWorks(): Promise<void> {
  const w = v4();
  const key = await mnemonicToPrivateKey(w.mnemonic);
  const wallet = client.open(WalletContractV4.create({ workchain: 0, publicKey: key.publicKey }));
  const seqno = await wallet.getSeqno();
  await wallet.sendTransfer({
    seqno,
    secretKey: key.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
    messages: [internal({ to: Address.parse(wallets.find((x) => x !== w)!.address), value: toNano('0.01'), bounce: false })],
  });
  await waitFor(async () => ((await wallet.getSeqno()) === seqno + 1 ? true : undefined), 20_000, 100);
  const run = await post('/api/v2/runGetMethod', { address: w.address, method: 'seqno', stack: [] });
  expect(run.status).toBe(200);
  expect(run.json.result.exit_code).toBe(0);
  expect(BigInt(run.json.result.stack[0][1])).toBe(BigInt(seqno + 1));
}

const P43 = 'config param 43';

describe('the limits come from the chain', () => {
  it("the chain's own config sets the limits the surfaces apply: the node defaults, as it has no param 43", async () => {
    const all = (await (await fetch(`${url}/api/v2/getConfigAll`)).json()) as { result: { config: { bytes: string } } };
    expect(sizeLimitsOf(Cell.fromBase64(all.result.config.bytes))).toEqual(CHAIN_SIZE_LIMITS);
    const p43 = (await (await fetch(`${url}/api/v2/getConfigParam?config_id=43`)).json()) as { result: { config: { bytes: string } } };
    expect(p43.result.config.bytes).toBe('');
    expect(CHAIN_SIZE_LIMITS).toEqual(NODE_DEFAULT_SIZE_LIMITS);
  });
});

describe('issue 14 inputs A-E, each refused with a 4xx naming the limit, the chain executing after each', () => {
  let baseline = 0;
  let peak = 0;
  beforeAll(() => {
    baseline = rssMb();
  });
  afterAll(() => {
    // eslint-disable-next-line no-console
    console.log(`gateway RSS: ${baseline.toFixed(0)} MB after genesis, ${peak.toFixed(0)} MB at most during the hostile inputs`);
  });
  const measure = () => {
    const now = rssMb();
    peak = Math.max(peak, now);
    expect(now).toBeLessThan(RSS_BOUND_MB);
  };

  it('A: sendBoc with a body that is a chain of 1,000 cells (v2, v3 /message, GraphQL sendMessage)', async () => {
    const boc = extMessage(v4().address, chain(1000));
    expect(Buffer.from(boc, 'base64').length).toBeLessThan(CHAIN_SIZE_LIMITS.maxExtMsgSize);
    const deep = `is 999 cells deep, the limit is 256 (the emulator's bound, under ${P43} max_ext_msg_depth 512)`;
    for (let i = 0; i < REPEAT; i++) {
      for (const path of ['/api/v2/sendBoc', '/api/v2/sendBocReturnHash', '/api/v2/sendBocReturnHashNoError']) {
        const r = await post(path, { boc });
        expect(r).toEqual({ status: 422, json: { ok: false, error: `failed to validate request: boc ${deep}`, code: 422 } });
      }
      const v3 = await post('/api/v3/message', { boc });
      expect(v3).toEqual({ status: 422, json: { code: 422, error: `boc ${deep}` } });
      const gql = await post('/graphql', { query: 'mutation($b: Boc!) { sendMessage(boc: $b) { hash } }', variables: { b: boc } });
      expect(gql.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(gql.json.errors[0].message).toContain(`Boc ${deep}`);
      measure();
    }
    await chainStillWorks();
  }, 60_000);

  it('A, estimateFee: the same body refused by v2 and v3', async () => {
    const body = chain(1000).toBoc().toString('base64');
    const deep = `is 999 cells deep, the limit is 256 (the emulator's bound, under ${P43} max_ext_msg_depth 512)`;
    for (let i = 0; i < REPEAT; i++) {
      const v2 = await post('/api/v2/estimateFee', { address: v4().address, body });
      expect(v2).toEqual({ status: 422, json: { ok: false, error: `failed to validate request: body ${deep}`, code: 422 } });
      const v3 = await post('/api/v3/estimateFee', { address: v4().address, body });
      expect(v3).toEqual({ status: 422, json: { code: 422, error: `body ${deep}` } });
    }
    await chainStillWorks();
  }, 60_000);

  it('B: runGetMethod with 60,000 and 10,000 stack entries (720 KB)', async () => {
    for (const n of [60_000, 10_000]) {
      const stack = Array.from({ length: n }, () => ['num', '1']);
      for (let i = 0; i < REPEAT; i++) {
        const r = await post('/api/v2/runGetMethod', { address: v4().address, method: 'seqno', stack });
        expect(r).toEqual({
          status: 422,
          json: { ok: false, error: `failed to validate request: stack has ${n} entries, the limit is 1024 (1024 entries, tuples of 255, 128 levels)`, code: 422 },
        });
        // v3's object entries make the 60,000 body larger than the 1 MB any body may be
        const v3 = await post('/api/v3/runGetMethod', { address: v4().address, method: 'seqno', stack: stack.map(() => ({ type: 'num', value: '1' })) });
        expect(v3).toEqual(
          n === 60_000
            ? { status: 413, json: { code: 413, error: 'Request body is too large' } }
            : { status: 422, json: { code: 422, error: `stack has ${n} entries, the limit is 1024` } },
        );
        measure();
      }
    }
    await chainStillWorks();
  }, 60_000);

  it("B, at the emulator's bound: 250 entries run, 300 (which trap the emulator) are refused", async () => {
    const stack = (n: number) => Array.from({ length: n }, (_, i) => ['num', String(i)]);
    const ok = await post('/api/v2/runGetMethod', { address: v4().address, method: 'seqno', stack: stack(250) });
    expect(ok.status).toBe(200);
    expect(ok.json.result.exit_code).toBe(0);
    expect(ok.json.result.stack).toHaveLength(251);
    for (let i = 0; i < REPEAT; i++) {
      const r = await post('/api/v2/runGetMethod', { address: v4().address, method: 'seqno', stack: stack(300) });
      expect(r.status).toBe(422);
      expect(r.json.error).toMatch(/^failed to validate request: stack serialises 3\d\d cells deep, the limit is 256 \(the emulator's bound\)$/);
      // a cell 300 deep in one entry is the same tree depth
      const cell = await post('/api/v2/runGetMethod', { address: v4().address, method: 'seqno', stack: [['tvm.Cell', chain(300).toBoc().toString('base64')]] });
      expect(cell).toEqual({
        status: 422,
        json: { ok: false, error: `failed to validate request: tvm.Cell is 299 cells deep, the limit is 256 (the emulator's bound, under ${P43} max_vm_data_depth 512)`, code: 422 },
      });
      measure();
    }
    await chainStillWorks();
  }, 60_000);

  it('C: runGetMethod with method "9223372036854775808"', async () => {
    const text = 'method id 9223372036854775808 is out of range: a method id is a signed 32-bit integer';
    for (let i = 0; i < REPEAT; i++) {
      const r = await post('/api/v2/runGetMethod', { address: v4().address, method: '9223372036854775808', stack: [] });
      expect(r).toEqual({ status: 422, json: { ok: false, error: `failed to validate request: ${text}`, code: 422 } });
      const v3 = await post('/api/v3/runGetMethod', { address: v4().address, method: '9223372036854775808', stack: [] });
      expect(v3).toEqual({ status: 422, json: { code: 422, error: text } });
      const gql = await post('/graphql', { query: `{ runGetMethod(address: "${v4().address}", method: "9223372036854775808") { exitCode } }` });
      expect(gql.json.errors[0]).toMatchObject({ message: text, extensions: { code: 'BAD_USER_INPUT' } });
    }
    // a 32-bit id still runs: seqno's own id
    const ok = await post('/api/v2/runGetMethod', { address: v4().address, method: '85143', stack: [] });
    expect(ok.status).toBe(200);
    expect(ok.json.result.exit_code).toBe(0);
    await chainStillWorks();
  }, 60_000);

  it('D: sendBoc with a 50,000-cell body, refused by its size before any cell is built', async () => {
    const boc = extMessage(v4().address, fanOut(50_000));
    const bytes = Buffer.from(boc, 'base64').length;
    for (let i = 0; i < REPEAT; i++) {
      const started = Date.now();
      const r = await post('/api/v2/sendBoc', { boc });
      expect(r).toEqual({
        status: 422,
        json: { ok: false, error: `failed to validate request: boc is ${bytes} bytes, the limit is 65535 (${P43} max_ext_msg_size)`, code: 422 },
      });
      expect(Date.now() - started).toBeLessThan(1000);
      measure();
    }
    await chainStillWorks();
  }, 60_000);

  it('an upload declared far over the limit is cut after its 413 without being read; a modest one is read to the end', async () => {
    const { hostname, port } = new URL(url);
    /** Sends a head declaring `declared` bytes and 64 KB of body; resolves with what came back and whether the socket closed. */
    const upload = (declared: number) =>
      new Promise<{ head: string; closed: boolean }>((resolve, reject) => {
        const socket = connect({ host: hostname, port: Number(port) });
        let text = '';
        socket.on('data', (d) => (text += d.toString('latin1')));
        socket.on('error', () => {});
        socket.on('close', () => resolve({ head: text.split('\r\n')[0]!, closed: true }));
        socket.on('connect', () => {
          socket.write(`POST /api/v2/runGetMethod HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
          socket.write(Buffer.alloc(64 * 1024, 0x20));
          // a modest body keeps its connection open for the rest of its bytes: answered, not closed
          setTimeout(() => (socket.destroyed ? undefined : (resolve({ head: text.split('\r\n')[0]!, closed: false }), socket.destroy())), 1500);
        });
        setTimeout(() => reject(new Error('no answer')), 10_000);
      });
    const huge = await upload(500 * 1024 * 1024);
    expect(huge).toEqual({ head: 'HTTP/1.1 413 Payload Too Large', closed: true });
    const modest = await upload(2 * 1024 * 1024);
    expect(modest).toEqual({ head: 'HTTP/1.1 413 Payload Too Large', closed: false });
    await chainStillWorks();
  }, 60_000);

  it('E: GraphQL accounts(addresses:) nested 10,000 lists deep', async () => {
    const query = `{ accounts(addresses: ${'['.repeat(10_000)}${']'.repeat(10_000)}) { balance } }`;
    for (let i = 0; i < REPEAT; i++) {
      for (const accept of ['application/json', 'application/graphql-response+json']) {
        const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query }) });
        expect(res.status).toBe(accept === 'application/json' ? 200 : 400);
        expect(await res.json()).toEqual({
          errors: [{ message: 'Syntax Error: the document nests brackets more than 64 levels deep, the limit of this service', extensions: { code: 'GRAPHQL_PARSE_FAILED' } }],
        });
      }
      measure();
    }
    await chainStillWorks();
  }, 60_000);
});

describe('upstream mode: the same limits before anything is forwarded', () => {
  it('A-D are refused with the same texts and the upstream never hears of them', async () => {
    let forwarded = 0;
    const upstream = createServer((req, res) => {
      forwarded++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"result":{"@type":"ok"}}');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const gw = await startUpstreamGateway(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, { UPSTREAM_RPS: '0' });
    try {
      const to = `0:${'11'.repeat(32)}`;
      const send = async (path: string, body: unknown) => {
        const res = await fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: res.status, json: (await res.json()) as any };
      };
      const deep = `failed to validate request: boc is 999 cells deep, the limit is 256 (the emulator's bound, under ${P43} max_ext_msg_depth 512)`;
      expect(await send('/api/v2/sendBoc', { boc: extMessage(to, chain(1000)) })).toEqual({ status: 422, json: { ok: false, error: deep, code: 422 } });
      const b = await send('/api/v2/runGetMethod', { address: to, method: 'seqno', stack: Array.from({ length: 10_000 }, () => ['num', '1']) });
      expect(b.status).toBe(422);
      expect(b.json.error).toMatch(/^failed to validate request: stack has 10000 entries, the limit is 1024/);
      const c = await send('/api/v3/runGetMethod', { address: to, method: '9223372036854775808', stack: [] });
      expect(c).toEqual({ status: 422, json: { code: 422, error: 'method id 9223372036854775808 is out of range: a method id is a signed 32-bit integer' } });
      const d = await send('/api/v3/message', { boc: extMessage(to, fanOut(50_000)) });
      expect(d.status).toBe(422);
      expect(d.json.error).toMatch(/^boc is \d+ bytes, the limit is 65535 \(config param 43 max_ext_msg_size\)$/);
      // a small message is forwarded: the upstream is reachable, so the zero below means "refused before it"
      const before = forwarded;
      expect(forwarded).toBe(0);
      const ok = await send('/api/v2/sendBoc', { boc: extMessage(to, chain(3)) });
      expect(ok.status).toBe(200);
      expect(forwarded).toBeGreaterThan(before);
    } finally {
      await gw.close();
      await new Promise<void>((r) => upstream.close(() => r()));
    }
  }, 60_000);
});
