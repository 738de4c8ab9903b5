import { Address, beginCell, Cell, external, internal, loadMessage, loadTransaction, SendMode, storeMessage, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import type { ExtTransaction, V2Api } from '../../../src/api/v2.js';
import type { Shared } from '../../../src/api/shared-answers.js';
import { deriveMnemonic } from '../../../src/sources/localnet/chain/genesis.js';
import { LocalChain, SHARD_ALL } from '../../../src/sources/localnet/index.js';
import { waitFor } from '../../helpers/wait.js';

const b64hash = (h: string) => Buffer.from(h, 'base64');

async function expectApiError(p: Promise<unknown>, status: number, text?: string | RegExp): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  const err = e as ApiError;
  expect(err.status).toBe(status);
  if (typeof text === 'string') expect(err.message).toContain(text);
  else if (text) expect(err.message).toMatch(text);
  return err;
}

/** A signed v4 transfer as a client builds it: createTransfer, then the external message BoC. */
function v4Transfer(chain: LocalChain, to: Address, value: bigint, seqno: number, body?: string): Buffer {
  const alice = chain.keyedWallets()[0]!;
  const wallet = alice.contract as WalletContractV4;
  const transfer = wallet.createTransfer({
    seqno,
    secretKey: alice.keyPair.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to, value, bounce: true, ...(body ? { body } : {}) })],
  });
  return beginCell().store(storeMessage(external({ to: wallet.address, body: transfer }))).endCell().toBoc();
}

async function allTransactions(v2: V2Api, address: Address): Promise<readonly Shared<ExtTransaction>[]> {
  return v2.getTransactions({ address, limit: 1000, toLt: 0n, archival: false });
}

describe('genesis', () => {
  it('is deterministic per seed', async () => {
    const [a, b, c] = await Promise.all([
      LocalChain.create({ seed: 'same', blockInterval: 0 }),
      LocalChain.create({ seed: 'same', blockInterval: 0 }),
      LocalChain.create({ seed: 'other', blockInterval: 0 }),
    ]);
    try {
      expect(a.wallets()).toEqual(b.wallets());
      // the process derives a seed's keys once for every chain: a derivation of its own gives the same words
      expect(await deriveMnemonic('same', 0)).toEqual(b.wallets()[0]!.mnemonic);
      expect(a.wallets().map((w) => w.address)).not.toEqual(c.wallets().map((w) => w.address));
      const txHashes = (ch: LocalChain) => ch.store.shardBlocks.flatMap((blk) => blk.txHashes);
      expect(txHashes(a).length).toBeGreaterThan(10);
      expect(txHashes(a)).toEqual(txHashes(b));
      expect(txHashes(a)).not.toEqual(txHashes(c));
      expect(await a.v2.getMasterchainInfo()).toEqual(await b.v2.getMasterchainInfo());
      expect((await a.v2.getMasterchainInfo()).last.root_hash).not.toBe((await c.v2.getMasterchainInfo()).last.root_hash);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
    // three geneses of 13 blocks at once
  }, 180_000);
});

describe('local chain (block interval 0)', () => {
  let chain: LocalChain;
  let v2: V2Api;
  let alice: Address;
  let bob: Address;
  let carol: Address;

  beforeAll(async () => {
    chain = await LocalChain.create({ seed: 'localnet-test', blockInterval: 0 });
    v2 = chain.v2;
    [alice, bob, carol] = chain.wallets().map((w) => Address.parseRaw(w.address)) as [Address, Address, Address];
  });
  afterAll(() => chain.close());

  it('has four funded, active v4r2/v5r1 wallets with valid mnemonics', async () => {
    const wallets = chain.wallets();
    expect(wallets.map((w) => w.version)).toEqual(['v4r2', 'v4r2', 'v5r1', 'v5r1']);
    const { mnemonicValidate } = await import('@ton/crypto');
    for (const w of wallets) {
      expect(w.address).toMatch(/^0:[0-9a-f]{64}$/);
      expect(w.mnemonic).toHaveLength(24);
      expect(await mnemonicValidate(w.mnemonic)).toBe(true);
      expect(BigInt(w.balance)).toBeGreaterThan(toNano('1000'));
      const info = await v2.getAddressInformation({ address: Address.parseRaw(w.address) });
      expect(info.state).toBe('active');
      expect(info.balance).toBe(w.balance);
      expect(info.code).not.toBe('');
    }
  });

  it('genesis history carries a text comment', async () => {
    const txs = await allTransactions(v2, bob);
    const texts = txs.flatMap((t) => (t.in_msg?.msg_data['@type'] === 'msg.dataText' ? [Buffer.from(t.in_msg.msg_data.text, 'base64').toString()] : []));
    expect(texts).toContain('Welcome to the local chain');
  });

  it('detects v4r2 and v5r1 wallets with seqno and wallet_id', async () => {
    const v4 = await v2.getWalletInformation({ address: alice });
    expect(v4).toMatchObject({ wallet: true, wallet_type: 'wallet v4 r2', wallet_id: 698983191, account_state: 'active' });
    expect(v4.seqno).toBeGreaterThanOrEqual(1);
    const v5 = await v2.getWalletInformation({ address: carol });
    expect(v5).toMatchObject({ wallet: true, wallet_type: 'wallet v5 r1', is_signature_allowed: true });
    expect(typeof v5.wallet_id).toBe('number');
    const ext = await v2.getExtendedAddressInformation({ address: alice });
    expect(ext.account_state).toMatchObject({ '@type': 'wallet.v4.accountState', wallet_id: '698983191' });
    expect((await v2.getExtendedAddressInformation({ address: carol })).account_state['@type']).toBe('raw.accountState');
  });

  it('runs get-methods with hex numbers in the legacy stack', async () => {
    const r = await v2.runGetMethod({ address: alice, method: 'seqno', stack: [] });
    expect(r.exit_code).toBe(0);
    expect(r.stack).toHaveLength(1);
    expect(r.stack[0]![0]).toBe('num');
    expect(r.stack[0]![1]).toMatch(/^0x[0-9a-f]+$/);
    const std = await v2.runGetMethodStd({ address: alice, method: 'seqno', stack: [] });
    expect(std.stack[0]).toMatchObject({ '@type': 'tvm.stackEntryNumber' });
    const missing = await v2.runGetMethod({ address: alice, method: 'no_such_method', stack: [] });
    expect(missing.exit_code).not.toBe(0);
    const uninit = await v2.runGetMethod({ address: new Address(0, Buffer.alloc(32, 7)), method: 'seqno', stack: [] });
    expect(uninit.exit_code).toBe(-13);
  });

  it('sendBoc executes a signed v4 transfer, seals it, and rejects a replay', async () => {
    const before = await v2.getMasterchainInfo();
    const aliceBefore = BigInt(await v2.getAddressBalance({ address: alice }));
    const bobBefore = BigInt(await v2.getAddressBalance({ address: bob }));
    const seqno = (await v2.getWalletInformation({ address: alice })).seqno!;
    const boc = v4Transfer(chain, bob, toNano('1.5'), seqno, 'hello bob');

    const info = await v2.sendBocReturnHash({ boc });
    expect(info.hash).toBe(Cell.fromBoc(boc)[0]!.hash().toString('base64'));

    const after = await v2.getMasterchainInfo();
    expect(after.last.seqno).toBe(before.last.seqno + 1);
    // bob's wallet code runs on receipt, so gas and storage since genesis come off the 1.5 TON
    const bobAfter = BigInt(await v2.getAddressBalance({ address: bob }));
    expect(bobAfter).toBeGreaterThan(bobBefore + toNano('1.4'));
    expect(bobAfter).toBeLessThan(bobBefore + toNano('1.5'));
    expect(BigInt(await v2.getAddressBalance({ address: alice }))).toBeLessThan(aliceBefore - toNano('1.5'));
    expect((await v2.getWalletInformation({ address: alice })).seqno).toBe(seqno + 1);

    const [aliceTx] = await v2.getTransactions({ address: alice, limit: 1, toLt: 0n, archival: false });
    const [bobTx] = await v2.getTransactions({ address: bob, limit: 1, toLt: 0n, archival: false });
    expect(aliceTx!.in_msg!.hash).toBe(info.hash);
    expect(aliceTx!.out_msgs).toHaveLength(1);
    expect(bobTx!.in_msg!.hash).toBe(aliceTx!.out_msgs[0]!.hash);
    expect(bobTx!.in_msg!.message).toBe('hello bob');

    // both landed in the new block's shard block
    const shards = await v2.getShards({ seqno: after.last.seqno });
    const block = await v2.getBlockTransactions({ ...shardRef(shards.shards[0]!), count: 40 });
    const hashes = block.transactions.map((t) => t.hash);
    expect(hashes).toContain(aliceTx!.transaction_id.hash);
    expect(hashes).toContain(bobTx!.transaction_id.hash);
    expect(chain.store.tx(b64hash(aliceTx!.transaction_id.hash).toString('hex'))!.mcSeqno).toBe(after.last.seqno);

    // tryLocate* through the message index
    const created = BigInt(aliceTx!.out_msgs[0]!.created_lt);
    const located = await v2.tryLocateTx({ source: alice, destination: bob, createdLt: created });
    expect(located.transaction_id).toEqual(bobTx!.transaction_id);
    const source = await v2.tryLocateSourceTx({ source: alice, destination: bob, createdLt: created });
    expect(source.transaction_id).toEqual(aliceTx!.transaction_id);
    await expectApiError(v2.tryLocateTx({ source: alice, destination: bob, createdLt: 1n }), 404, 'transaction was not found');

    await expectApiError(v2.sendBoc({ boc }), 500, 'LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted');
    expect((await v2.getMasterchainInfo()).last.seqno).toBe(after.last.seqno);
  });

  it('rejects a BoC that is not an external message with 422', async () => {
    await expectApiError(v2.sendBoc({ boc: Buffer.from('not a boc') }), 422);
    const internalMsg = beginCell().store(storeMessage(internal({ to: bob, value: 1n }) as never)).endCell();
    await expectApiError(v2.sendBoc({ boc: internalMsg.toBoc() }), 422);
  });

  it('block seqnos increase and every transaction has a block', async () => {
    const seqnos = chain.store.mcBlocks.map((b) => b.seqno);
    expect(seqnos).toEqual(seqnos.map((_, i) => i));
    const utimes = chain.store.mcBlocks.map((b) => b.genUtime);
    expect([...utimes].sort((x, y) => x - y)).toEqual(utimes);
    for (const b of chain.store.shardBlocks) {
      for (const t of chain.store.blockTxs(b)) {
        expect(t.block).toEqual({ workchain: 0, shard: SHARD_ALL, seqno: b.seqno });
        expect(t.now).toBe(b.genUtime);
        expect(t.lt).toBeGreaterThanOrEqual(b.startLt);
        expect(t.endLt).toBeLessThanOrEqual(b.endLt);
      }
    }
    const header = await v2.getBlockHeader({ workchain: -1, shard: SHARD_ALL, seqno: 2 });
    expect(header.prev_blocks[0]).toEqual(await v2.lookupBlock({ workchain: -1, shard: SHARD_ALL, seqno: 1 }));
  });

  it('keeps store indexes a v3 API can query', async () => {
    const store = chain.store;
    const txs = store.accountTransactions(alice);
    const second = txs[1]!;
    expect(store.stateBefore(second)?.txHash).toBe(txs[0]!.hash);
    expect(store.stateBefore(txs[0]!)).toBeUndefined();
    expect(store.transactionsOfMcBlock(2).map((t) => t.hash)).toEqual(store.shardBlocks[2]!.txHashes);
    const inMsg = store.message(second.inMsgHash!)!;
    expect(inMsg.destTxHash).toBe(second.hash);
    const sealed = store.sealedTransactions();
    expect(store.transactionsByLt(sealed[2]!.lt, sealed[5]!.lt)).toEqual(sealed.slice(2, 5));
    expect(store.transactionsByUtime(sealed[0]!.now, sealed[0]!.now + 1).length).toBeGreaterThan(0);
    const faucetHistory = store.accountStateHistory(chain.faucetAddress);
    expect(faucetHistory[0]).toMatchObject({ lt: 0n, mcSeqno: 0 });
  });

  it('getTransactions pages by lt+hash and to_lt, each transaction exactly once', async () => {
    const all = await allTransactions(v2, alice);
    expect(all.length).toBeGreaterThanOrEqual(4);
    const lts = all.map((t) => BigInt(t.transaction_id.lt));
    expect([...lts].sort((a, b) => (a > b ? -1 : 1))).toEqual(lts);

    const seen: string[] = [];
    let from: { lt: bigint; hash: Buffer } | undefined;
    for (;;) {
      const page = await v2.getTransactions({ address: alice, limit: 2, toLt: 0n, archival: false, ...(from ? { from } : {}) });
      seen.push(...page.map((t) => t.transaction_id.hash));
      if (page.length < 2) break;
      const tx = loadTransaction(Cell.fromBase64(page[page.length - 1]!.data).beginParse());
      if (tx.prevTransactionLt === 0n) break;
      from = { lt: tx.prevTransactionLt, hash: Buffer.from(tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex') };
    }
    expect(seen).toEqual(all.map((t) => t.transaction_id.hash));

    const toLt = BigInt(all[all.length - 2]!.transaction_id.lt);
    const newer = await v2.getTransactions({ address: alice, limit: 100, toLt, archival: false });
    expect(newer.map((t) => t.transaction_id.hash)).toEqual(all.slice(0, all.length - 2).map((t) => t.transaction_id.hash));

    const std = await v2.getTransactionsStd({ address: alice, limit: 2, toLt: 0n, archival: false });
    expect(std.transactions.map((t) => t.transaction_id)).toEqual(all.slice(0, 2).map((t) => t.transaction_id));
    expect(std.previous_transaction_id).toEqual(all[2]!.transaction_id);

    await expectApiError(
      v2.getTransactions({ address: alice, limit: 10, toLt: 0n, archival: false, from: { lt: 123n, hash: Buffer.alloc(32) } }),
      500,
      'LITE_SERVER_UNKNOWN',
    );
    expect(await allTransactions(v2, new Address(0, Buffer.alloc(32, 9)))).toEqual([]);
  });

  it('getBlockTransactions pages with after, in (account, lt) order', async () => {
    const ref = { workchain: 0, shard: SHARD_ALL, seqno: 1 };
    const full = await v2.getBlockTransactions({ ...ref, count: 100 });
    expect(full.incomplete).toBe(false);
    expect(full.transactions.length).toBe(8);
    expect(full.transactions.every((t) => t.mode === 135)).toBe(true);
    const keys = full.transactions.map((t) => `${t.account}|${t.lt.padStart(20, '0')}`);
    expect([...keys].sort()).toEqual(keys);

    const paged: string[] = [];
    let after: { lt: bigint; accountHash: Buffer } | undefined;
    for (;;) {
      const page = await v2.getBlockTransactions({ ...ref, count: 3, ...(after ? { after } : {}) });
      expect(page.req_count).toBe(3);
      paged.push(...page.transactions.map((t) => t.hash));
      if (!page.incomplete) break;
      const last = page.transactions[page.transactions.length - 1]!;
      after = { lt: BigInt(last.lt), accountHash: Address.parseRaw(last.account).hash };
    }
    expect(paged).toEqual(full.transactions.map((t) => t.hash));

    const ext = await v2.getBlockTransactionsExt({ ...ref, count: 2 });
    expect(ext.incomplete).toBe(true);
    expect(ext.transactions.map((t) => t.transaction_id.hash)).toEqual(full.transactions.slice(0, 2).map((t) => t.hash));
    await expectApiError(v2.getBlockTransactions({ ...ref, seqno: 99999, count: 10 }), 500, 'block is not applied');
  });

  it('lookupBlock by seqno, lt and unixtime', async () => {
    const blk = chain.store.shardBlocks[2]!;
    const bySeqno = await v2.lookupBlock({ workchain: 0, shard: SHARD_ALL, seqno: 2 });
    expect(bySeqno.root_hash).toBe(blk.rootHash.toString('base64'));
    const someTx = chain.store.blockTxs(blk)[1]!;
    expect(await v2.lookupBlock({ workchain: 0, shard: SHARD_ALL, lt: someTx.lt })).toEqual(bySeqno);
    expect(await v2.lookupBlock({ workchain: 0, shard: SHARD_ALL, unixtime: blk.genUtime })).toEqual(bySeqno);
    expect(await v2.lookupBlock({ workchain: 0, shard: SHARD_ALL, unixtime: blk.genUtime + 1 })).toEqual(bySeqno);
    const mc = await v2.lookupBlock({ workchain: -1, shard: SHARD_ALL, seqno: 2 });
    expect(mc.workchain).toBe(-1);
    await expectApiError(v2.lookupBlock({ workchain: -1, shard: SHARD_ALL, seqno: 1_000_000 }), 500, 'block is not applied');
    await expectApiError(v2.lookupBlock({ workchain: 0, shard: SHARD_ALL, lt: 10n ** 15n }), 500);
  });

  it('estimateFee emulates without changing state', async () => {
    const before = await v2.getAddressInformation({ address: alice });
    const seqno = (await v2.getWalletInformation({ address: alice })).seqno!;
    const boc = v4Transfer(chain, bob, toNano('1'), seqno);
    const msgBody = loadMessage(Cell.fromBoc(boc)[0]!.beginParse()).body;
    const fees = await v2.estimateFee({ address: alice, body: msgBody.toBoc(), ignoreChksig: true });
    expect(fees['@type']).toBe('query.fees');
    expect(fees.source_fees.gas_fee).toBeGreaterThan(0);
    expect(fees.source_fees.fwd_fee).toBeGreaterThan(0);
    expect(fees.source_fees.in_fwd_fee).toBeGreaterThan(0);
    expect(fees.destination_fees).toEqual([]);
    expect(await v2.getAddressInformation({ address: alice })).toEqual(before);
    expect((await v2.getWalletInformation({ address: alice })).seqno).toBe(seqno);
  });

  it('estimateFee prices storage up to the state block, as tonlib does, not up to the wall clock', async () => {
    const seqno = (await v2.getWalletInformation({ address: alice })).seqno!;
    const body = loadMessage(Cell.fromBoc(v4Transfer(chain, bob, toNano('1'), seqno))[0]!.beginParse()).body.toBoc();
    const first = await v2.estimateFee({ address: alice, body, ignoreChksig: true });
    // no block is sealed between the two estimates (interval 0), while the wall clock moves on by a second
    const second0 = Math.floor(Date.now() / 1000);
    while (Math.floor(Date.now() / 1000) === second0) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1000));
    const second = await v2.estimateFee({ address: alice, body, ignoreChksig: true });
    expect(second).toEqual(first);
  });

  it('faucet credits any address with a real transfer', async () => {
    const fresh = new Address(0, Buffer.alloc(32, 0xab));
    expect(await v2.getAddressState({ address: fresh })).toBe('uninitialized');
    const { hash } = await chain.faucet(fresh, toNano('3'));
    expect(await v2.getAddressBalance({ address: fresh })).toBe(toNano('3').toString());
    const [tx] = await allTransactions(v2, fresh);
    expect(tx!.transaction_id.hash).toBe(hash);
    expect(tx!.in_msg!.source).not.toBe('');
  });

  it('answers account state as of a masterchain seqno', async () => {
    const genesisBalance = await v2.getAddressBalance({ address: alice, seqno: 0 });
    expect(genesisBalance).toBe('0');
    expect(await v2.getAddressState({ address: alice, seqno: 1 })).toBe('uninitialized');
    expect(await v2.getAddressState({ address: alice, seqno: 2 })).toBe('active');
    const r = await v2.runGetMethod({ address: alice, method: 'seqno', stack: [], seqno: 2 });
    expect(r.stack).toEqual([['num', '0x1']]);
    expect(r.block_id.seqno).toBe(2);
  });

  it('answers the remaining methods in their shapes', async () => {
    await expectApiError(v2.getTokenData({ address: alice }), 409, 'is not Jetton or NFT');
    const sigs = await v2.getMasterchainBlockSignatures({ seqno: 1 });
    expect(sigs.signatures).toHaveLength(1);
    const proof = await v2.getShardBlockProof({ workchain: 0, shard: SHARD_ALL, seqno: 1 });
    expect(proof.mc_id.seqno).toBe(1);
    expect(proof.links).toHaveLength(1);
    expect((await v2.getConsensusBlock()).consensus_block).toBe(chain.store.lastMc.seqno);
    expect((await v2.getOutMsgQueueSize()).shards).toHaveLength(2);
    const p19 = await v2.getConfigParam({ configId: 19 });
    expect(Cell.fromBase64(p19.config.bytes).beginParse().loadInt(32)).toBe(-239);
    expect((await v2.getConfigAll({})).config.bytes.length).toBeGreaterThan(1000);
    expect((await v2.getLibraries({ libraries: [Buffer.alloc(32)] })).result).toEqual([]);

    const raw = chain.wallets()[0]!.address;
    const detected = await v2.detectAddress({ address: raw });
    expect(detected.raw_form).toBe(raw);
    expect(detected.given_type).toBe('raw_form');
    expect(detected.bounceable.b64url.startsWith('EQ')).toBe(true);
    expect(detected.non_bounceable.b64url.startsWith('UQ')).toBe(true);
    expect(await v2.packAddress({ address: raw })).toBe(detected.bounceable.b64url);
    expect(await v2.unpackAddress({ address: detected.non_bounceable.b64 })).toBe(raw.toUpperCase());
    const h = await v2.detectHash({ hash: 'ab'.repeat(32) });
    expect(h.b64).toBe(Buffer.alloc(32, 0xab).toString('base64'));
    await expectApiError(v2.detectHash({ hash: 'nope' }), 422);
  });
});

describe('local chain (block interval 200 ms)', () => {
  it('seals pending transactions on the timer, then stops on close', async () => {
    const chain = await LocalChain.create({ seed: 'timed', blockInterval: 200 });
    try {
      const v2 = chain.v2;
      const [alice, bob] = chain.wallets().map((w) => Address.parseRaw(w.address)) as [Address, Address];
      const seqno = (await v2.getWalletInformation({ address: alice })).seqno!;
      const start = chain.store.lastMc.seqno;
      await v2.sendBoc({ boc: v4Transfer(chain, bob, toNano('1'), seqno) });
      // nobody seals by hand: the timer puts the transfer in a block and goes on sealing
      await waitFor(async () => (chain.store.lastMc.seqno > start + 1 ? true : undefined), 10_000, 20);
      expect(chain.store.lastMc.seqno).toBeGreaterThan(start + 1);
      expect((await v2.getWalletInformation({ address: alice })).seqno).toBe(seqno + 1);
    } finally {
      await chain.close();
    }
    const sealed = chain.store.lastMc.seqno;
    // an absence: more than two intervals pass without a block
    await new Promise((r) => setTimeout(r, 450));
    expect(chain.store.lastMc.seqno).toBe(sealed);
  });
});

function shardRef(id: { workchain: number; shard: string; seqno: number }) {
  return { workchain: id.workchain, shard: BigInt(id.shard), seqno: id.seqno };
}
