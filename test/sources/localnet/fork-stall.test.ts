/**
 * A fork never stalls on its upstream (issue 41, attack 10): a gateway on its local chain plays the network over
 * real HTTP on loopback, through a proxy that can stop answering or answer garbage for chosen accounts; a fork of
 * it runs signed transfers whose destinations it has not loaded. Block production, other transfers and reads go
 * on while those accounts load at the upstream's pace; an acknowledged transfer is executed, or its trace says
 * with a code that a message of it failed; a send the fork cannot load the wallet for gets a coded error.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { mnemonicToPrivateKey, type KeyPair } from '@ton/crypto';
import { WalletContractV5R1 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import type { KeyedWallet } from '../../../src/sources/localnet/index.js';
import { startTestGateway, waitFor } from '../../helpers/gateway.js';
import { v2Rpc as v2 } from '../../helpers/v2-rpc.js';
import { v4Transfer } from '../../helpers/transfer.js';
import { forward } from '../../helpers/forward.js';

type Mode = 'silent' | 'garbage';

/**
 * Forwards to `target`, except a request naming an account given a mode: it is accepted and never answered
 * ('silent'), or answered 200 with a body that is not the API's ('garbage').
 */
class SwitchableUpstream {
  private readonly modes = new Map<string, Mode>();
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  url = '';

  constructor(private readonly target: string) {}

  set(a: Address, mode: Mode | undefined): void {
    if (mode) this.modes.set(a.hash.toString('hex'), mode);
    else this.modes.delete(a.hash.toString('hex'));
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** The mode of the first account the request names (raw addresses, as the fork asks). */
  private modeOf(text: string): Mode | undefined {
    for (const hex of text.toLowerCase().match(/[0-9a-f]{64}/g) ?? []) {
      const mode = this.modes.get(hex);
      if (mode) return mode;
    }
    return undefined;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const mode = this.modeOf(decodeURIComponent(req.url!) + (body?.toString() ?? ''));
      if (mode === 'silent') return;
      if (mode === 'garbage') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true,"result":{"balance":[1,2,3],"last_transaction_id":"\u0000garbage"}}');
        return;
      }
      forward(this.target, req, body, res);
    });
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((r) => this.server?.close(() => r()) ?? r());
  }
}

let origin: Gateway;
let wallets: readonly KeyedWallet[];
let v5: { contract: WalletContractV5R1; keyPair: KeyPair };
let forkSeqno: number;

const sendBoc = (g: Gateway, boc: Buffer) => v2(g, 'sendBoc', { boc: boc.toString('base64') });
const v3 = async (g: Gateway, path: string) => (await (await fetch(`${g.url}/api/v3${path}`)).json()) as any;
const fresh = (n: number): Address[] => Array.from({ length: n }, () => new Address(0, randomBytes(32)));

/** One signed v5r1 external sending `value` to each of `to` (up to 255). */
function fanOut(seqno: number, to: readonly Address[], value: bigint): Buffer {
  const body = v5.contract.createTransfer({
    seqno,
    secretKey: v5.keyPair.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: to.map((a) => internal({ to: a, value, bounce: false })),
  });
  return beginCell().store(storeMessage(external({ to: v5.contract.address, body }))).endCell().toBoc();
}

/** Whether an account has a local transaction sealed in a block (the chain's own record, no upstream call). */
const credited = (g: Gateway, a: Address): boolean => g.chain!.store.accountTransactions(a).some((t) => t.block !== undefined);
const waiting = (g: Gateway): number => g.chain!.fork!.deliveries.waitingCount;

/** The newest trace of an account, read from the fork (the account must be loaded already). */
async function newestTrace(g: Gateway, a: Address): Promise<any> {
  return (await v3(g, `/traces?account=${a.toRawString()}&limit=1&sort=desc`)).traces[0];
}

beforeAll(async () => {
  origin = await startTestGateway();
  wallets = origin.chain!.keyedWallets();
  const listed = origin.chain!.wallets().find((w) => w.version === 'v5r1')!;
  const keyPair = await mnemonicToPrivateKey(listed.mnemonic);
  const contract = WalletContractV5R1.create({ publicKey: keyPair.publicKey, walletId: { networkGlobalId: origin.chain!.globalId } });
  expect(contract.address.equals(Address.parse(listed.address))).toBe(true);
  v5 = { contract, keyPair };
  forkSeqno = origin.chain!.store.lastMc.seqno;
}, 120_000);

afterAll(async () => {
  await origin?.close();
});

/** A fork of the origin through its own switchable upstream, for the enclosing describe; `loaded` accounts read first. */
function forkThroughSwitch(options: (upstreamUrl: string) => Record<string, unknown>, loaded: () => Address[] = () => []): { upstream: SwitchableUpstream; fork: Gateway } {
  const s = {} as { upstream: SwitchableUpstream; fork: Gateway };
  beforeAll(async () => {
    s.upstream = new SwitchableUpstream(origin.url);
    await s.upstream.start();
    s.fork = await startTestGateway(options(s.upstream.url) as never);
    for (const a of loaded()) await v2(s.fork, 'getWalletInformation', { address: a.toRawString() });
  }, 120_000);
  afterAll(async () => {
    await s.fork?.close();
    await s.upstream?.close();
  });
  return s;
}

describe('a fork paced at 1 request/s', () => {
  const s = forkThroughSwitch((url) => ({ blockInterval: 1000, fork: { url, seqno: forkSeqno, apiKey: '', rps: 1, deliveryLoads: 4 } }));

  it('answers a transfer to 30 unloaded accounts at once and goes on sealing other transfers and blocks while they load', async () => {
    const [alice, bob] = wallets;
    // the other sender and its receiver are loaded before the fan-out takes the upstream's pace
    const aliceSeqno = (await v2(s.fork, 'getWalletInformation', { address: alice!.contract.address.toRawString() })).result.seqno as number;
    const bobBefore = BigInt((await v2(s.fork, 'getAddressBalance', { address: bob!.contract.address.toRawString() })).result as string);

    const targets = fresh(30);
    // read from the origin: the fork has not loaded the wallet yet
    const v5Seqno = (await v2(origin, 'getWalletInformation', { address: v5.contract.address.toRawString() })).result.seqno as number;
    const sent = await sendBoc(s.fork, fanOut(v5Seqno, targets, toNano('0.05')));
    expect(sent.ok).toBe(true);
    // answered while its messages still wait for their accounts: the chain did not hold for them
    expect(waiting(s.fork)).toBeGreaterThan(0);
    // the 30 accounts load 4 at a time, leaving the rest of the pace to reads
    expect(s.fork.chain!.fork!.deliveries.loadsInFlight).toBe(4);
    const seqnoAtAnswer = s.fork.chain!.store.lastMc.seqno;

    // 30 reads of other unloaded accounts, started together, queue on the same pace
    const reads = fresh(30).map((a) => v2(s.fork, 'getAddressBalance', { address: a.toRawString() }));

    const other = await sendBoc(s.fork, v4Transfer(alice!, bob!.contract.address, toNano('1'), aliceSeqno));
    expect(other.ok).toBe(true);
    // the other transfer is sealed, and blocks go on, while the fan-out's messages still wait
    await waitFor(async () => (s.fork.chain!.store.lastMc.seqno >= seqnoAtAnswer + 2 && credited(s.fork, bob!.contract.address) ? true : undefined), 20_000);
    expect(BigInt((await v2(s.fork, 'getAddressBalance', { address: bob!.contract.address.toRawString() })).result as string)).toBeGreaterThan(bobBefore);
    expect(waiting(s.fork)).toBeGreaterThan(0);

    // every read answers: the network's balance, or a coded refusal of the paced queue
    for (const r of await Promise.all(reads)) {
      if (r.ok) expect(r.result).toBe('0');
      else expect([429, 502, 503, 504]).toContain(r.code);
    }

    // every destination is credited in the end, in later blocks
    await waitFor(async () => (targets.every((a) => credited(s.fork, a)) ? true : undefined), 240_000, 500);
    expect(waiting(s.fork)).toBe(0);
    for (const a of targets) {
      expect(BigInt((await v2(s.fork, 'getAddressBalance', { address: a.toRawString() })).result as string)).toBe(toNano('0.05'));
    }
    const trace = await waitFor(async () => {
      const t = await newestTrace(s.fork, v5.contract.address);
      return t?.trace_info.trace_state === 'complete' && t.trace_info.transactions === 31 ? t : undefined;
    }, 20_000);
    expect(trace.trace_info.pending_messages).toBe(0);
    expect(trace.warning).toBeUndefined();
  }, 300_000);
});

/** Whether each of the transaction's out messages was delivered (a transaction took it in) or is reported failed. */
function accountedFor(g: Gateway, sender: Address, to: readonly Address[]): boolean {
  const tx = g.chain!.store.accountTransactions(sender).at(-1)!;
  const delivered = new Set(to.flatMap((a) => g.chain!.store.accountTransactions(a).map((t) => t.inMsgHash)));
  return tx.outMsgHashes.length === to.length && tx.outMsgHashes.every((h) => delivered.has(h) || g.chain!.fork!.deliveries.statusOf(h)?.failed !== undefined);
}

describe.each(['silent', 'garbage'] as const)('a fork whose upstream goes %s for some accounts', (mode) => {
  const WAIT_MS = 20_000;
  // the wallets the tests send from and to are loaded while the upstream answers for them
  const s = forkThroughSwitch(
    (url) => ({ blockInterval: 500, fork: { url, seqno: forkSeqno, apiKey: '', rps: 0, timeoutMs: 1_000, deliveryDeadlineMs: WAIT_MS, deliveryLoads: 4 } }),
    () => [v5.contract.address, wallets[0]!.contract.address, wallets[1]!.contract.address],
  );

  it('refuses with a coded error a send or a credit whose own account it cannot load', async () => {
    const [wallet, credited] = fresh(2);
    s.upstream.set(wallet!, mode);
    s.upstream.set(credited!, mode);
    const boc = beginCell().store(storeMessage(external({ to: wallet!, body: beginCell().storeUint(0, 32).endCell() }))).endCell().toBoc();
    const r = await sendBoc(s.fork, boc);
    expect(r.ok).toBe(false);
    expect([502, 503, 504]).toContain(r.code);
    const credit = await fetch(`${s.fork.url}/localnet/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: credited!.toRawString(), amount: '1000000000' }),
    });
    expect([502, 503, 504]).toContain(credit.status);
  }, 60_000);

  it("holds a message to that account while blocks, other transfers and reads go on, then fails it with a code in the sender's trace", async () => {
    const [alice, bob] = wallets;
    const [stalled, ...others] = fresh(3);
    s.upstream.set(stalled!, mode);
    const bobBefore = BigInt((await v2(s.fork, 'getAddressBalance', { address: bob!.contract.address.toRawString() })).result as string);
    const seqno = (await v2(s.fork, 'getWalletInformation', { address: v5.contract.address.toRawString() })).result.seqno as number;
    const aliceSeqno = (await v2(s.fork, 'getWalletInformation', { address: alice!.contract.address.toRawString() })).result.seqno as number;
    const targets = [stalled!, ...others];
    expect((await sendBoc(s.fork, fanOut(seqno, targets, toNano('0.05')))).ok).toBe(true);
    const seqnoAtAnswer = s.fork.chain!.store.lastMc.seqno;
    expect((await sendBoc(s.fork, v4Transfer(alice!, bob!.contract.address, toNano('1'), aliceSeqno))).ok).toBe(true);

    // the other destinations and the other transfer are sealed, blocks go on, reads answer: the message waits
    await waitFor(async () => (s.fork.chain!.store.lastMc.seqno >= seqnoAtAnswer + 2 && credited(s.fork, bob!.contract.address) && others.every((a) => credited(s.fork, a)) ? true : undefined), 30_000);
    expect(BigInt((await v2(s.fork, 'getAddressBalance', { address: bob!.contract.address.toRawString() })).result as string)).toBeGreaterThan(bobBefore);
    expect((await v2(s.fork, 'getMasterchainInfo', {})).ok).toBe(true);
    const pending = await newestTrace(s.fork, v5.contract.address);
    expect(waiting(s.fork)).toBe(1);
    expect(pending.trace_info.trace_state).toBe('pending');
    expect(pending.trace_info.pending_messages).toBeGreaterThanOrEqual(1);

    const broken = await waitFor(async () => {
      const t = await newestTrace(s.fork, v5.contract.address);
      return t?.trace_info.trace_state === 'broken' ? t : undefined;
    }, 90_000, 250);
    expect(broken.warning).toMatch(
      new RegExp(`^FORK_ACCOUNT_UNAVAILABLE: message \\S+ to ${stalled!.toRawString()} was not delivered: the fork's upstream did not give account \\S+ within 20 s`),
    );
    expect(waiting(s.fork)).toBe(0);
    expect(credited(s.fork, stalled!)).toBe(false);
    // nothing acknowledged is lost: each message of the transfer was delivered or is reported failed
    expect(accountedFor(s.fork, v5.contract.address, targets)).toBe(true);
    expect(s.fork.chain!.store.lastMc.seqno).toBeGreaterThan(seqnoAtAnswer + 2);
  }, 150_000);

  it('delivers a held message once the upstream answers for its account within the bound', async () => {
    const [late, other] = fresh(2);
    s.upstream.set(late!, mode);
    const seqno = (await v2(s.fork, 'getWalletInformation', { address: v5.contract.address.toRawString() })).result.seqno as number;
    expect((await sendBoc(s.fork, fanOut(seqno, [late!, other!], toNano('0.05')))).ok).toBe(true);
    // acknowledged with both messages held (neither destination is loaded); the upstream then answers
    expect(waiting(s.fork)).toBe(2);
    s.upstream.set(late!, undefined);
    await waitFor(async () => (credited(s.fork, late!) && credited(s.fork, other!) ? true : undefined), 60_000, 250);
    expect(waiting(s.fork)).toBe(0);
    const t = await waitFor(async () => {
      const tr = await newestTrace(s.fork, v5.contract.address);
      return tr?.trace_info.trace_state === 'complete' ? tr : undefined;
    }, 20_000);
    expect(t.trace_info.transactions).toBe(3);
    expect(t.warning).toBeUndefined();
    expect(BigInt((await v2(s.fork, 'getAddressBalance', { address: late!.toRawString() })).result as string)).toBe(toNano('0.05'));
    expect(accountedFor(s.fork, v5.contract.address, [late!, other!])).toBe(true);
  }, 120_000);
});

describe('a fork rolled back while a message waits for its account', () => {
  const s = forkThroughSwitch(
    (url) => ({ blockInterval: 500, finalityDelayMs: 3_600_000, fork: { url, seqno: forkSeqno, apiKey: '', rps: 0, timeoutMs: 1_000, deliveryDeadlineMs: 60_000 } }),
    () => [v5.contract.address],
  );

  it('forgets the message whose sending transaction the rollback undid, and never delivers it', async () => {
    const [stalled] = fresh(1);
    s.upstream.set(stalled!, 'silent');
    const kept = s.fork.chain!.store.lastMc.seqno;
    const seqno = (await v2(s.fork, 'getWalletInformation', { address: v5.contract.address.toRawString() })).result.seqno as number;
    expect((await sendBoc(s.fork, fanOut(seqno, [stalled!], toNano('0.05')))).ok).toBe(true);
    expect(waiting(s.fork)).toBe(1);
    const sent = await waitFor(async () => s.fork.chain!.store.accountTransactions(v5.contract.address).find((t) => t.lt > 0n && t.block && t.block.seqno > kept), 20_000);
    const rolled = await fetch(`${s.fork.url}/localnet/rollback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to_seqno: kept }) });
    expect(rolled.status).toBe(200);
    expect(waiting(s.fork)).toBe(0);
    expect(s.fork.chain!.fork!.deliveries.statusOf(sent.outMsgHashes[0]!)).toBeUndefined();

    // the upstream answers again and the account is loaded; blocks go on, and the message never arrives
    s.upstream.set(stalled!, undefined);
    // a read may share the load still waiting for the silent answer: it is asked again until it answers
    const balance = await waitFor(async () => (await v2(s.fork, 'getAddressBalance', { address: stalled!.toRawString() })).result as string | undefined, 20_000, 250);
    expect(balance).toBe('0');
    const after = s.fork.chain!.store.lastMc.seqno;
    await waitFor(async () => (s.fork.chain!.store.lastMc.seqno >= after + 3 ? true : undefined), 20_000);
    expect(credited(s.fork, stalled!)).toBe(false);
    expect(s.fork.chain!.store.tx(sent.hash, { pending: true })).toBeUndefined();
  }, 90_000);
});
