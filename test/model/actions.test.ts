/**
 * The action classifier, action-type versions, the trace tree and /decode, on message bodies built with
 * @ton/core (TEP-74 / TEP-62 layouts) and hand-made transactions carrying only what the classifier reads.
 */
import { sha256_sync } from '@ton/crypto';
import { Address, beginCell, Cell, storeMessage, type Message, type Transaction } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { Transaction as V3Transaction } from '../../src/api/v3/transactions.js';
import { actionVisible, classifyTrace as classifyTransactions, expandActionTypes, traceTree, type ContractInfo } from '../../src/model/v3/index.js';
import { fromCoreTransaction, type ClassifierTx } from '../../src/model/v3/classifier-input.js';
import { decodeBodyString, opcodeName, parseOpcodeString } from '../../src/model/v3/decode.js';
import { rawUpper } from '../../src/model/address.js';
import { getMethodContractInfo, stdGetStack, tupleGetStack, type GetStack } from '../../src/model/v3/contract-info.js';

/** The local chain's path: @ton/core transactions through its adapter. */
const classifyTrace = (txs: ClassifierTx[], i: ContractInfo) => classifyTransactions(txs.map(fromCoreTransaction), i);

const addr = (n: number) => new Address(0, Buffer.alloc(32, n));
const raw = (a: Address) => rawUpper(a);

const ALICE = addr(1);
const BOB = addr(2);
const ALICE_JW = addr(3);
const BOB_JW = addr(4);
const MASTER = addr(5);
const ITEM = addr(6);
const COLLECTION = addr(7);

const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();

let lt = 1_000_000n;
let n = 0;

interface TxOpts {
  parent?: ClassifierTx;
  aborted?: boolean;
  orig?: 'active' | 'uninitialized' | 'non-existing';
  end?: 'active' | 'uninitialized' | 'non-existing';
}

/** A transaction of `dest` receiving `body` from `src` (external-in when src is null). */
function tx(src: Address | null, dest: Address, body: Cell, value: bigint, o: TxOpts = {}): ClassifierTx {
  lt += 1_000_000n;
  const msg: Message = src
    ? {
        info: {
          type: 'internal',
          ihrDisabled: true,
          bounce: true,
          bounced: false,
          src,
          dest,
          value: { coins: value },
          ihrFee: 0n,
          forwardFee: 0n,
          createdLt: lt - 1n,
          createdAt: 1700000000,
        },
        init: null,
        body,
      }
    : { info: { type: 'external-in', src: null, dest, importFee: 0n }, init: null, body };
  const t = {
    lt,
    now: 1700000001,
    oldStatus: o.orig ?? 'active',
    endStatus: o.end ?? 'active',
    description: { type: 'generic', aborted: o.aborted ?? false, computePhase: { type: 'vm' } },
    inMessage: msg,
  } as unknown as Transaction;
  const hash = (++n).toString(16).padStart(64, '0');
  return { hash, ...(o.parent ? { parentHash: o.parent.hash } : {}), tx: t, inMsg: { msg, cell: beginCell().store(storeMessage(msg)).endCell() } };
}

const walletExt = () => beginCell().storeUint(0xdeadbeef, 32).storeUint(1, 64).endCell();

function jettonTransferBody(amount: bigint, forward: Cell | null): Cell {
  const b = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(7, 64).storeCoins(amount).storeAddress(BOB).storeAddress(ALICE).storeMaybeRef(null).storeCoins(1n);
  return (forward ? b.storeBit(1).storeRef(forward) : b.storeBit(0)).endCell();
}

const internalTransferBody = (amount: bigint) =>
  beginCell().storeUint(0x178d4519, 32).storeUint(7, 64).storeCoins(amount).storeAddress(ALICE).storeAddress(ALICE).storeCoins(1n).storeBit(0).endCell();
const notifyBody = (amount: bigint) => beginCell().storeUint(0x7362d09c, 32).storeUint(7, 64).storeCoins(amount).storeAddress(ALICE).storeBit(0).endCell();
const excessBody = () => beginCell().storeUint(0xd53276db, 32).storeUint(7, 64).endCell();

const info = (o: { wallets?: boolean; items?: boolean } = {}): ContractInfo => ({
  jettonWallet: async (a) =>
    o.wallets === false ? null : a === raw(ALICE_JW) ? { owner: raw(ALICE), jetton: raw(MASTER) } : a === raw(BOB_JW) ? { owner: raw(BOB), jetton: raw(MASTER) } : null,
  nftItem: async (a) => (o.items !== false && a === raw(ITEM) ? { index: '42', collection: raw(COLLECTION) } : null),
});

/** alice's wallet (external) → her jetton wallet → bob's jetton wallet (deployed) → bob (notify) + alice (excess). */
function jettonTransferTrace(): ClassifierTx[] {
  const ext = tx(null, ALICE, walletExt(), 0n);
  const transfer = tx(ALICE, ALICE_JW, jettonTransferBody(500n, comment('for bob')), 100n, { parent: ext });
  const internal = tx(ALICE_JW, BOB_JW, internalTransferBody(500n), 90n, { parent: transfer, orig: 'non-existing' });
  const notify = tx(BOB_JW, BOB, notifyBody(500n), 1n, { parent: internal });
  const excess = tx(BOB_JW, ALICE, excessBody(), 50n, { parent: internal });
  return [ext, transfer, internal, notify, excess];
}

describe('classifyTrace: jetton transfer', () => {
  it('one jetton_transfer covering the wallets, notification and excess, plus the receiver wallet deploy', async () => {
    const txs = jettonTransferTrace();
    const actions = await classifyTrace(txs, info());
    expect(actions.map((a) => a.type)).toEqual(['jetton_transfer', 'contract_deploy']);
    const jt = actions[0]!;
    expect(Object.keys(jt.details)).toEqual([
      'asset', 'sender', 'receiver', 'sender_jetton_wallet', 'receiver_jetton_wallet', 'amount', 'comment',
      'is_encrypted_comment', 'query_id', 'response_destination', 'custom_payload', 'forward_payload', 'forward_amount',
    ]);
    expect(jt.details).toMatchObject({
      asset: raw(MASTER),
      sender: raw(ALICE),
      receiver: raw(BOB),
      sender_jetton_wallet: raw(ALICE_JW),
      receiver_jetton_wallet: raw(BOB_JW),
      amount: '500',
      comment: 'for bob',
      is_encrypted_comment: false,
      query_id: '7',
      response_destination: raw(ALICE),
      custom_payload: null,
      forward_amount: '1',
    });
    expect(Cell.fromBase64(jt.details.forward_payload as string).equals(comment('for bob'))).toBe(true);
    // every transaction of the trace, the external wallet one as the initiator, by lt
    expect(jt.txHashes).toEqual(txs.map((t) => t.hash));
    expect(jt.success).toBe(true);
    // the window starts at the transfer message's created_lt and ends at the last transaction
    expect(jt.startLt).toBe(txs[1]!.tx.lt - 1n);
    expect(jt.endLt).toBe(txs[4]!.tx.lt);
    const rootMsgHash = txs[1]!.inMsg!.cell.hash().toString('base64');
    expect(jt.actionId).toBe(sha256_sync(Buffer.from(rootMsgHash + 'jetton_transfer')).toString('base64'));
    const deploy = actions[1]!;
    expect(deploy.details).toEqual({ opcode: '0x178d4519', source: raw(ALICE_JW), destination: raw(BOB_JW), value: '90' });
    expect(deploy.txHashes).toEqual([txs[1]!.hash, txs[2]!.hash]);
  });

  it('falls back to call_contract actions when the receiver wallet is not a jetton wallet; the external one is dropped', async () => {
    const actions = await classifyTrace(jettonTransferTrace(), info({ wallets: false }));
    expect(actions.map((a) => a.type)).toEqual(['call_contract', 'call_contract', 'contract_deploy', 'call_contract', 'call_contract']);
    expect(actions[0]!.details).toEqual({ opcode: '0x0f8a7ea5', source: raw(ALICE), destination: raw(ALICE_JW), value: '100', extra_currencies: {} });
  });

  it('a matcher that throws has not matched: the rest of the trace is still classified', async () => {
    // the jetton matcher asks about the wallets and gets an error; the reference treats that as no match
    const failing: ContractInfo = { ...info(), jettonWallet: async () => Promise.reject(new Error('get-method failed')) };
    const actions = await classifyTrace(jettonTransferTrace(), failing);
    expect(actions.map((a) => a.type)).toEqual(['call_contract', 'call_contract', 'contract_deploy', 'call_contract', 'call_contract']);
  });

  it('a failed internal transfer makes the action unsuccessful', async () => {
    const txs = jettonTransferTrace();
    (txs[2]!.tx.description as { aborted: boolean }).aborted = true;
    const [jt] = await classifyTrace(txs, info());
    expect(jt!.type).toBe('jetton_transfer');
    expect(jt!.success).toBe(false);
  });
});

describe('classifyTrace: other types', () => {
  it('ton_transfer with a comment, and an encrypted one', async () => {
    const ext = tx(null, ALICE, walletExt(), 0n);
    const plain = tx(ALICE, BOB, comment('hi\u0000 there'), 5n, { parent: ext });
    const enc = tx(ALICE, BOB, beginCell().storeUint(0x2167da4b, 32).storeBuffer(Buffer.from('secret')).endCell(), 6n, { parent: ext });
    const empty = tx(ALICE, BOB, Cell.EMPTY, 7n, { parent: ext });
    const actions = await classifyTrace([ext, plain, enc, empty], info());
    expect(actions.map((a) => a.type)).toEqual(['ton_transfer', 'ton_transfer', 'ton_transfer']);
    expect(actions[0]!.details).toEqual({ source: raw(ALICE), destination: raw(BOB), value: '5', value_extra_currencies: {}, comment: 'hi there', encrypted: false });
    expect(actions[1]!.details).toMatchObject({ comment: Buffer.from('secret').toString('base64'), encrypted: true });
    expect(actions[2]!.details).toMatchObject({ comment: null, encrypted: false, value: '7' });
    expect(actions[0]!.txHashes).toEqual([ext.hash, plain.hash]);
    expect(actions[0]!.accounts).toEqual([raw(BOB), raw(ALICE)]);
  });

  it('a bounceable transfer that failed is unsuccessful; a failed one to an uninit account is not', async () => {
    const ext = tx(null, ALICE, walletExt(), 0n);
    const bounced = tx(ALICE, BOB, Cell.EMPTY, 5n, { parent: ext, aborted: true });
    const [a] = await classifyTrace([ext, bounced], info());
    expect(a!.success).toBe(false);
    const ext2 = tx(null, ALICE, walletExt(), 0n);
    const toUninit = tx(ALICE, BOB, Cell.EMPTY, 5n, { parent: ext2, aborted: true, orig: 'uninitialized', end: 'uninitialized' });
    (toUninit.inMsg!.msg.info as { bounce: boolean }).bounce = false;
    const [b] = await classifyTrace([ext2, toUninit], info());
    expect(b!.success).toBe(true);
  });

  it('jetton_burn covers the burn notification and the excess', async () => {
    const ext = tx(null, ALICE, walletExt(), 0n);
    const burn = tx(ALICE, ALICE_JW, beginCell().storeUint(0x595f07bc, 32).storeUint(9, 64).storeCoins(300n).storeAddress(ALICE).storeMaybeRef(null).endCell(), 50n, { parent: ext });
    const note = tx(ALICE_JW, MASTER, beginCell().storeUint(0x7bdd97de, 32).storeUint(9, 64).storeCoins(300n).storeAddress(ALICE).storeAddress(ALICE).endCell(), 40n, { parent: burn });
    const excess = tx(MASTER, ALICE, excessBody(), 30n, { parent: note });
    const actions = await classifyTrace([ext, burn, note, excess], info());
    expect(actions).toHaveLength(1);
    expect(actions[0]!.type).toBe('jetton_burn');
    expect(actions[0]!.details).toEqual({ owner: raw(ALICE), owner_jetton_wallet: raw(ALICE_JW), asset: raw(MASTER), amount: '300' });
    expect(actions[0]!.txHashes).toEqual([ext.hash, burn.hash, note.hash, excess.hash]);
  });

  it('a swap.coffee MEV refund after a failed swap takes the place of its call, with the details v3 prints for the type', async () => {
    const MEV = addr(8);
    const ext = tx(null, ALICE, walletExt(), 0n);
    const hold = tx(ALICE, MEV, beginCell().storeUint(0x6bc79e7e, 32).storeUint(1, 64).endCell(), 900n, { parent: ext });
    const refund = tx(MEV, ALICE, beginCell().storeUint(0xee51ce51, 32).storeUint(1, 64).storeAddress(ALICE).endCell(), 800n, { parent: hold });
    const all = await classifyTrace([ext, hold, refund], info());
    // each keeps its call as an action inside it (neither is a v1 type), hidden wherever the type is supported
    expect(all.filter((a) => a.ancestorTypes.length).map((a) => [a.type, a.ancestorTypes])).toEqual([
      ['call_contract', ['coffee_mev_protect_hold_funds']],
      ['call_contract', ['coffee_mev_protect_failed_swap']],
    ]);
    const actions = all.filter((a) => a.ancestorTypes.length === 0);
    expect(actions.map((a) => a.type)).toEqual(['coffee_mev_protect_hold_funds', 'coffee_mev_protect_failed_swap']);
    expect(actions[0]!.details).toMatchObject({ source: raw(ALICE), mev_contract: raw(MEV), asset: null, amount: '900' });
    expect(actions[1]!.details).toEqual({ error: "unsupported action type: 'coffee_mev_protect_failed_swap'" });
    expect(actions[1]!.txHashes).toEqual([hold.hash, refund.hash]);
  });

  it('election_deposit and election_recover: a stake the elector confirms, one it returns, a stake recovered with its coins', async () => {
    const ELECTOR = new Address(-1, Buffer.alloc(32, 0x33));
    const query = (op: number) => beginCell().storeUint(op, 32).storeUint(5, 64);
    const ext = tx(null, ALICE, walletExt(), 0n);
    const stake = tx(ALICE, ELECTOR, query(0x4e73744b).storeUint(1, 256).storeUint(2, 32).storeUint(3, 32).storeUint(4, 256).endCell(), 10_000n, { parent: ext });
    const confirm = tx(ELECTOR, ALICE, query(0xf374484c).endCell(), 1n, { parent: stake });
    const [deposit] = await classifyTrace([ext, stake, confirm], info());
    expect(deposit!.details).toEqual({ stake_holder: raw(ALICE), amount: '10000' });
    expect(deposit).toMatchObject({ type: 'election_deposit', success: true, details: { stake_holder: raw(ALICE), amount: '10000' } });
    expect(deposit!.txHashes).toEqual([ext.hash, stake.hash, confirm.hash]);

    // no confirmation from the elector: the stake did not go in
    const ext2 = tx(null, ALICE, walletExt(), 0n);
    const stake2 = tx(ALICE, ELECTOR, query(0x4e73744b).endCell(), 10_000n, { parent: ext2 });
    const [unconfirmed] = await classifyTrace([ext2, stake2], info());
    expect(unconfirmed).toMatchObject({ type: 'election_deposit', success: false });
    // the elector did not answer the recovery: no amount printed
    const ext4 = tx(null, ALICE, walletExt(), 0n);
    const unanswered = tx(ALICE, ELECTOR, query(0x47657424).endCell(), 1_000n, { parent: ext4 });
    const [notRecovered] = await classifyTrace([ext4, unanswered], info());
    expect(notRecovered).toMatchObject({ type: 'election_recover', success: false, details: { stake_holder: raw(ALICE) } });
    expect(notRecovered!.details).not.toHaveProperty('amount');

    const ext3 = tx(null, ALICE, walletExt(), 0n);
    const recover = tx(ALICE, ELECTOR, query(0x47657424).endCell(), 1_000n, { parent: ext3 });
    const paid = tx(ELECTOR, ALICE, query(0xf96f7324).endCell(), 10_500n, { parent: recover });
    const [recovered] = await classifyTrace([ext3, recover, paid], info());
    expect(recovered).toMatchObject({ type: 'election_recover', success: true, details: { stake_holder: raw(ALICE), amount: '10500' } });
    expect(recovered!.txHashes).toEqual([ext3.hash, recover.hash, paid.hash]);
  });

  it('nft_discovery: get_static_data answered by report_static_data, its calls kept inside it', async () => {
    const ext = tx(null, ALICE, walletExt(), 0n);
    const ask = tx(ALICE, ITEM, beginCell().storeUint(0x2fcb26a2, 32).storeUint(8, 64).endCell(), 50n, { parent: ext });
    const report = tx(ITEM, ALICE, beginCell().storeUint(0x8b771735, 32).storeUint(8, 64).storeUint(42, 256).storeAddress(COLLECTION).endCell(), 40n, { parent: ask });
    const all = await classifyTrace([ext, ask, report], info());
    const top = all.filter((a) => a.ancestorTypes.length === 0);
    expect(top).toHaveLength(1);
    expect(top[0]).toMatchObject({ type: 'nft_discovery', details: { source: raw(ALICE), nft_item: raw(ITEM), nft_collection: raw(COLLECTION), nft_item_index: '42' } });
    expect(top[0]!.txHashes).toEqual([ext.hash, ask.hash, report.hash]);
    // not a v1 type: its two calls are actions inside it, seen by a v1 client in its place
    expect(all.filter((a) => a.ancestorTypes.length).map((a) => [a.type, a.details.opcode, a.ancestorTypes])).toEqual([
      ['call_contract', '0x2fcb26a2', ['nft_discovery']],
      ['call_contract', '0x8b771735', ['nft_discovery']],
    ]);
    const v1 = expandActionTypes(['v1']);
    expect(all.filter((a) => actionVisible(a.type, a.ancestorTypes, v1)).map((a) => a.type)).toEqual(['call_contract', 'call_contract']);
  });

  it('subscribe: the plugin asks, the wallet pays it, it pays the beneficiary; unsubscribe: destruct passed on', async () => {
    const PLUGIN = addr(9);
    const query = (op: number) => beginCell().storeUint(op, 32).storeUint(3, 64);
    const ext = tx(null, PLUGIN, walletExt(), 0n);
    const request = tx(PLUGIN, ALICE, query(0x706c7567).storeCoins(700n).endCell(), 1n, { parent: ext });
    const pay = tx(ALICE, PLUGIN, query(0xf06c7567).endCell(), 720n, { parent: request });
    const payout = tx(PLUGIN, BOB, query(0x73756273).endCell(), 700n, { parent: pay });
    const [sub] = await classifyTrace([ext, request, pay, payout], info());
    expect(sub).toMatchObject({
      type: 'subscribe',
      success: true,
      details: { subscriber: raw(ALICE), subscription: raw(PLUGIN), beneficiary: raw(BOB), amount: '700' },
    });
    expect(sub!.txHashes).toEqual([ext.hash, request.hash, pay.hash, payout.hash]);

    const ext2 = tx(null, ALICE, walletExt(), 0n);
    const destruct = tx(ALICE, PLUGIN, query(0x64737472).endCell(), 5n, { parent: ext2 });
    const passed = tx(PLUGIN, BOB, query(0x64737472).endCell(), 4n, { parent: destruct });
    const [unsub] = await classifyTrace([ext2, destruct, passed], info());
    expect(unsub).toMatchObject({ type: 'unsubscribe', details: { subscriber: raw(ALICE), subscription: raw(PLUGIN), beneficiary: raw(BOB), amount: null } });
    expect(unsub!.txHashes).toEqual([ext2.hash, destruct.hash, passed.hash]);
  });

  it('multisig orders: created (new_order, init), approved by op or comment (accepted, rejected), executed; only for an order contract', async () => {
    const MULTISIG = addr(10);
    const ORDER = addr(11);
    const orderData = beginCell().storeAddress(MULTISIG).storeUint(4, 256).endCell();
    const withOrder: ContractInfo = { ...info(), contractData: async (a) => (a === raw(ORDER) ? orderData : null) };
    const order = beginCell().storeUint(0xabcdef, 32).endCell();
    const signers = beginCell().storeUint(0, 8).endCell();
    const q = (op: number) => beginCell().storeUint(op, 32).storeUint(12, 64);
    const ext = tx(null, ALICE, walletExt(), 0n);
    const create = tx(ALICE, MULTISIG, q(0xf718510f).storeUint(4, 256).storeBit(1).storeUint(0, 8).storeUint(1_800_000_000, 48).storeRef(order).endCell(), 100n, { parent: ext });
    const init = tx(MULTISIG, ORDER, q(0x9c73fba2).storeUint(2, 8).storeRef(signers).storeUint(1_800_000_000, 48).storeRef(order).storeBit(1).storeUint(0, 8).endCell(), 90n, {
      parent: create,
      orig: 'non-existing',
    });
    const created = (await classifyTrace([ext, create, init], withOrder)).filter((a) => a.ancestorTypes.length === 0);
    expect(created.map((a) => a.type)).toEqual(['multisig_create_order', 'contract_deploy']);
    expect(created[0]!.details).toEqual({
      query_id: '12',
      order_seqno: '4',
      is_created_by_signer: true,
      is_signed_by_creator: true,
      creator_index: 0,
      expiration_date: 1_800_000_000,
      order_boc: order.toBoc({ idx: false, crc32: false }).toString('base64'),
      source: raw(ALICE),
      destination: raw(MULTISIG),
      destination_order: raw(ORDER),
    });
    // the same messages to a contract that is no order are calls
    expect((await classifyTrace([ext, create, init], info())).map((a) => a.type)).not.toContain('multisig_create_order');

    const ext2 = tx(null, BOB, walletExt(), 0n);
    const approve = tx(BOB, ORDER, q(0xa762230f).storeUint(1, 8).endCell(), 50n, { parent: ext2 });
    const accepted = tx(ORDER, BOB, q(0x82609bf6).endCell(), 40n, { parent: approve });
    const top = async (txs: ClassifierTx[]) => (await classifyTrace(txs, withOrder)).filter((a) => a.ancestorTypes.length === 0);
    const [approval] = await top([ext2, approve, accepted]);
    expect(approval).toMatchObject({ type: 'multisig_approve', details: { signer_index: 1, exit_code: 0, source: raw(BOB), destination: raw(ORDER) } });
    expect(approval!.txHashes).toEqual([ext2.hash, approve.hash, accepted.hash]);

    const ext3 = tx(null, BOB, walletExt(), 0n);
    const byComment = tx(BOB, ORDER, comment('approve'), 50n, { parent: ext3 });
    const rejected = tx(ORDER, BOB, q(0xafaf283e).storeUint(107, 32).endCell(), 40n, { parent: byComment });
    const [refused] = await top([ext3, byComment, rejected]);
    expect(refused).toMatchObject({ type: 'multisig_approve', details: { signer_index: -1, exit_code: 107 } });

    const execute = tx(ORDER, MULTISIG, q(0x75097f5d).storeUint(4, 256).storeUint(1_800_000_000, 48).storeUint(2, 8).storeBuffer(Buffer.alloc(32, 7)).storeRef(order).endCell(), 30n, {
      parent: accepted,
    });
    const executed = (await classifyTrace([ext2, approve, accepted, execute], withOrder)).find((a) => a.type === 'multisig_execute');
    expect(executed?.details).toEqual({
      query_id: '12',
      order_seqno: '4',
      expiration_date: 1_800_000_000,
      approvals_num: 2,
      signers_hash: Buffer.alloc(32, 7).toString('base64'),
      order_boc: order.toBoc({ idx: false, crc32: false }).toString('base64'),
      source: raw(ORDER),
      destination: raw(MULTISIG),
    });
  });

  it('a trace nothing classifies is one unknown action over all of it, its id the trace id', async () => {
    const ext = tx(null, ALICE, walletExt(), 0n, { aborted: true });
    const [unknown, ...rest] = await classifyTrace([ext], info());
    expect(rest).toEqual([]);
    expect(unknown).toMatchObject({
      type: 'unknown',
      actionId: Buffer.from(ext.hash, 'hex').toString('base64'),
      txHashes: [ext.hash],
      success: false,
      accounts: [raw(ALICE)],
      details: { error: "unsupported action type: 'unknown'" },
    });
  });

  it('jetton_mint from a mint message to the master', async () => {
    const ext = tx(null, ALICE, walletExt(), 0n);
    const mintBody = beginCell().storeUint(0x642b7d07, 32).storeUint(1, 64).storeAddress(BOB).storeCoins(20n).storeRef(internalTransferBody(1000n)).endCell();
    const mint = tx(ALICE, MASTER, mintBody, 100n, { parent: ext });
    const it2 = tx(MASTER, BOB_JW, internalTransferBody(1000n), 20n, { parent: mint, orig: 'non-existing' });
    const excess = tx(BOB_JW, ALICE, excessBody(), 10n, { parent: it2 });
    const actions = await classifyTrace([ext, mint, it2, excess], info());
    expect(actions.map((a) => a.type)).toEqual(['jetton_mint', 'contract_deploy']);
    expect(actions[0]!.details).toEqual({ asset: raw(MASTER), receiver: raw(BOB), receiver_jetton_wallet: raw(BOB_JW), amount: '1000', ton_amount: '20' });
    expect(actions[0]!.success).toBe(true);
  });

  it('nft_transfer with ownership_assigned and excess; nft_mint for an item deployed by its collection', async () => {
    const ext = tx(null, ALICE, walletExt(), 0n);
    const transfer = tx(
      ALICE,
      ITEM,
      beginCell().storeUint(0x5fcc3d14, 32).storeUint(3, 64).storeAddress(BOB).storeAddress(ALICE).storeMaybeRef(null).storeCoins(2n).storeBit(1).storeRef(comment('yours')).endCell(),
      60n,
      { parent: ext },
    );
    const assigned = tx(ITEM, BOB, beginCell().storeUint(0x05138d91, 32).storeUint(3, 64).storeAddress(ALICE).storeBit(0).endCell(), 2n, { parent: transfer });
    const excess = tx(ITEM, ALICE, excessBody(), 40n, { parent: transfer });
    const actions = await classifyTrace([ext, transfer, assigned, excess], info());
    expect(actions.map((a) => a.type)).toEqual(['nft_transfer']);
    const d = actions[0]!.details;
    expect(Object.keys(d)).toEqual([
      'nft_collection', 'nft_item', 'nft_item_index', 'old_owner', 'new_owner', 'is_purchase', 'query_id', 'response_destination',
      'custom_payload', 'forward_payload', 'forward_amount', 'comment', 'is_encrypted_comment', 'marketplace', 'real_old_owner',
      'marketplace_address', 'payout_amount', 'payout_address', 'payout_comment', 'payout_comment_encrypted', 'payout_comment_encoded',
      'royalty_amount', 'royalty_address',
    ]);
    expect(d).toMatchObject({ nft_collection: raw(COLLECTION), nft_item: raw(ITEM), nft_item_index: '42', old_owner: raw(ALICE), new_owner: raw(BOB), is_purchase: false, comment: 'yours', query_id: '3' });

    const ext2 = tx(null, ALICE, walletExt(), 0n);
    const deployItem = tx(ALICE, COLLECTION, beginCell().storeUint(1, 32).storeUint(0, 64).endCell(), 100n, { parent: ext2 });
    const itemDeploy = tx(COLLECTION, ITEM, beginCell().storeAddress(BOB).endCell(), 50n, { parent: deployItem, orig: 'non-existing' });
    const minted = await classifyTrace([ext2, deployItem, itemDeploy], info());
    expect(minted.map((a) => a.type)).toEqual(['call_contract', 'nft_mint', 'contract_deploy']);
    expect(minted[1]!.details).toEqual({ owner: raw(COLLECTION), nft_item: raw(ITEM), nft_collection: raw(COLLECTION), nft_item_index: '42' });
  });

  it('nft_transfer from a Getgems sale paid by the new owner is a purchase covering the payment; the seller buying back is not', async () => {
    const SALE = addr(8);
    const MARKET = addr(9);
    const CAROL = addr(10);
    /** bob pays the sale contract, which hands the item to bob */
    const trace = () => {
      const ext = tx(null, BOB, walletExt(), 0n);
      const pay = tx(BOB, SALE, beginCell().endCell(), 5_000n, { parent: ext });
      const transfer = tx(SALE, ITEM, beginCell().storeUint(0x5fcc3d14, 32).storeUint(0, 64).storeAddress(BOB).storeAddress(BOB).storeMaybeRef(null).storeCoins(1n).storeBit(0).endCell(), 60n, { parent: pay });
      return [ext, pay, transfer];
    };
    const withSale = (owner: Address): ContractInfo => ({
      ...info(),
      nftSale: async (a) => (a === raw(SALE) ? { marketplace: raw(MARKET), nft: raw(ITEM), owner: raw(owner), price: '4000' } : null),
    });
    const txs = trace();
    const [bought, ...rest] = await classifyTrace(txs, withSale(CAROL));
    expect(rest).toEqual([]);
    expect(bought!.type).toBe('nft_transfer');
    expect(bought!.details).toMatchObject({ is_purchase: true, price: '4000', marketplace: 'getgems', marketplace_address: raw(MARKET), real_old_owner: raw(CAROL), old_owner: raw(SALE), new_owner: raw(BOB) });
    expect(bought!.txHashes).toEqual(txs.map((t) => t.hash));

    const again = await classifyTrace(trace(), withSale(BOB));
    expect(again.map((a) => a.type)).toEqual(['ton_transfer', 'nft_transfer']);
    expect(again[1]!.details).toMatchObject({ is_purchase: false, marketplace: null, real_old_owner: null });
  });

  it('a wallet deployed by its own external message gives contract_deploy and no call_contract', async () => {
    const ext = tx(null, ALICE, walletExt(), 0n, { orig: 'uninitialized' });
    const actions = await classifyTrace([ext], info());
    expect(actions.map((a) => a.type)).toEqual(['contract_deploy']);
    expect(actions[0]!.details).toEqual({ opcode: '0xdeadbeef', destination: raw(ALICE) });
    expect(actions[0]!.txHashes).toEqual([ext.hash]);
  });
});

describe('action type versions (v3.md §4.3)', () => {
  it('expands shortcuts recursively, keeps v1 always and defaults to latest', () => {
    const v1 = expandActionTypes(['v1']);
    expect(v1.has('jetton_transfer')).toBe(true);
    expect(v1.has('multisig_execute')).toBe(false);
    expect(v1.has('v1')).toBe(false);
    const latest = expandActionTypes(undefined);
    expect(latest.has('cocoon_client_withdraw')).toBe(true);
    expect(latest.has('nft_purchase')).toBe(true);
    expect(latest.has('unknown')).toBe(true);
    expect(latest.has('tgbtc_mint')).toBe(false);
    const nft = expandActionTypes(['nft.v3']);
    expect(nft.has('nft_put_on_sale')).toBe(true);
    expect(nft.has('auction_bid')).toBe(true);
    expect(nft.has('unknown')).toBe(false);
    const custom = expandActionTypes(['my_type']);
    expect(custom.has('my_type')).toBe(true);
    expect(custom.has('ton_transfer')).toBe(true);
  });

  it('hides an action whose ancestor type is supported', () => {
    const v1 = expandActionTypes(['v1']);
    const v2 = expandActionTypes(['v2']);
    expect(actionVisible('jetton_transfer', ['multisig_execute'], v1)).toBe(true);
    expect(actionVisible('jetton_transfer', ['multisig_execute'], v2)).toBe(false);
    expect(actionVisible('multisig_execute', [], v1)).toBe(false);
    expect(actionVisible('multisig_execute', [], v2)).toBe(true);
  });
});

describe('trace tree', () => {
  const t = (hash: string, inMsg: string, outs: string[]): V3Transaction =>
    ({ hash, in_msg: { hash: inMsg }, out_msgs: outs.map((h) => ({ hash: h })) }) as unknown as V3Transaction;

  it('children [] without out-messages, null when nobody received them, a warning for a second root', () => {
    expect(traceTree([t('a', 'm0', ['m1', 'm2']), t('b', 'm1', []), t('c', 'm2', ['m3'])]).root).toEqual({
      tx_hash: 'a',
      in_msg_hash: 'm0',
      children: [
        { tx_hash: 'b', in_msg_hash: 'm1', children: [] },
        { tx_hash: 'c', in_msg_hash: 'm2', children: null },
      ],
    });
    const broken = traceTree([t('a', 'm0', []), t('x', 'zz', [])]);
    expect(broken.warning).toBe('missing node in trace found');
    const byParent = traceTree([t('a', 'm0', ['m1']), t('b', 'other', [])], (h) => (h === 'b' ? 'a' : undefined));
    expect(byParent.root!.children).toEqual([{ tx_hash: 'b', in_msg_hash: 'other', children: [] }]);
  });
});

describe('/decode', () => {
  it('reads opcodes as hex first, then decimal, then signed decimal', () => {
    expect(parseOpcodeString('0x0f8a7ea5')).toBe(0x0f8a7ea5);
    expect(parseOpcodeString('10')).toBe(0x10);
    expect(parseOpcodeString('4294967295')).toBe(4294967295);
    expect(parseOpcodeString('-1')).toBe(0xffffffff);
    expect(parseOpcodeString('xyz')).toBeUndefined();
    expect(parseOpcodeString('0x1ffffffff')).toBeUndefined();
    // hex overflows, then the same digits are read as decimal, as the reference does
    expect(parseOpcodeString('0x100000000')).toBe(100000000);
    expect(opcodeName(0x0f8a7ea5)).toBe('jetton_transfer');
    expect(opcodeName(0x7362d09c)).toBe('jetton_notify');
    expect(opcodeName(0x05138d91)).toBe('nft_ownership_assigned');
    expect(opcodeName(0x12345678)).toBe('unknown');
  });

  it('decodes standard bodies from base64 or hex and reports the rest as unknown', () => {
    const body = jettonTransferBody(500n, comment('for bob'));
    const b64 = body.toBoc().toString('base64');
    const decoded = decodeBodyString(b64);
    expect(decoded).toMatchObject({ '@type': 'jetton_transfer', query_id: '7', amount: '500', destination: raw(BOB), response_destination: raw(ALICE) });
    expect(decoded.forward_payload).toEqual({ '@type': 'text_comment', text: 'for bob' });
    expect(decodeBodyString(body.toBoc().toString('hex'))).toEqual(decoded);
    expect(decodeBodyString(comment('hello').toBoc().toString('base64'))).toEqual({ '@type': 'text_comment', text: 'hello' });
    expect(decodeBodyString(excessBody().toBoc().toString('base64'))).toEqual({ '@type': 'excess', query_id: '7' });
    expect(decodeBodyString(Cell.EMPTY.toBoc().toString('base64'))).toEqual({ '@type': 'empty_cell' });
    expect(decodeBodyString(beginCell().storeUint(0x12345678, 32).endCell().toBoc().toString('base64'))).toEqual({ error: 'unknown: no parser succeeded' });
    expect(decodeBodyString(beginCell().storeUint(1, 8).endCell().toBoc().toString('base64'))).toEqual({ error: 'unknown: boc is too small, size 8' });
    expect(decodeBodyString('zz').error).toMatch(/^unknown: failed to decode hex/);
    expect(decodeBodyString('te6!!').error).toMatch(/^unknown: failed to decode base64/);
    expect(decodeBodyString('abcd').error).toMatch(/^unknown: failed to deserialize boc/);
  });
});

describe('account questions from get-methods (model/v3/contract-info.ts)', () => {
  const slice = (a: Address | null) => beginCell().storeAddress(a).endCell();
  const jettonAsset = (a: Address) => beginCell().storeUint(1, 4).storeInt(a.workChain, 8).storeBuffer(a.hash).endCell();
  const TON_ASSET = beginCell().storeUint(0, 4).endCell();
  const SALE = addr(8);
  const MARKET = addr(9);
  /** a runner over fixed stacks per (account, method), counting the runs */
  const runner = (stacks: Record<string, GetStack>) => {
    const runs: string[] = [];
    const info = getMethodContractInfo({
      run: async (a, method) => {
        runs.push(`${a} ${method}`);
        return stacks[`${a} ${method}`] ?? null;
      },
      data: async (a) => (a === raw(ITEM) ? comment('data') : null),
    });
    return { info, runs };
  };

  it('reads wallets, items, DeDust pools, Getgems sales and auctions from their stacks, and nothing else as one', async () => {
    const { info } = runner({
      [`${raw(ALICE_JW)} get_wallet_data`]: [5n, slice(ALICE), slice(MASTER), comment('code')],
      [`${raw(ITEM)} get_nft_data`]: [-1n, 7n, slice(COLLECTION), slice(BOB), comment('content')],
      [`${raw(BOB_JW)} get_nft_data`]: [-1n, 3n, slice(null)],
      [`${raw(ALICE)} get_assets`]: [TON_ASSET, jettonAsset(MASTER)],
      [`${raw(SALE)} get_sale_data`]: [0x46495850n, 0n, 1700000000n, slice(MARKET), slice(ITEM), slice(BOB), 9n * 10n ** 9n, slice(MARKET), 1n, slice(COLLECTION), 2n],
      [`${raw(MARKET)} get_sale_data`]: [0x415543n, 0n, 1700000000n, slice(MARKET), slice(ITEM), slice(null), 4n * 10n ** 9n, slice(ALICE)],
      // a stack of the wrong shape is no answer
      [`${raw(COLLECTION)} get_wallet_data`]: [5n, 6n, slice(MASTER)],
      [`${raw(COLLECTION)} get_assets`]: [comment('not an asset'), TON_ASSET],
    });
    expect(await info.jettonWallet(raw(ALICE_JW))).toEqual({ owner: raw(ALICE), jetton: raw(MASTER) });
    expect(await info.nftItem(raw(ITEM))).toEqual({ index: '7', collection: raw(COLLECTION) });
    expect(await info.nftItem(raw(BOB_JW))).toEqual({ index: '3', collection: null });
    expect(await info.dexPool!(raw(ALICE))).toEqual([null, raw(MASTER)]);
    expect(await info.nftSale!(raw(SALE))).toEqual({ marketplace: raw(MARKET), nft: raw(ITEM), owner: raw(BOB), price: '9000000000' });
    expect(await info.nftAuction!(raw(SALE))).toBeNull();
    expect(await info.nftAuction!(raw(MARKET))).toEqual({ marketplace: raw(MARKET), nft: raw(ITEM), owner: null, price: '4000000000' });
    expect(await info.nftSale!(raw(MARKET))).toBeNull();
    expect(await info.jettonWallet(raw(COLLECTION))).toBeNull();
    expect(await info.dexPool!(raw(COLLECTION))).toBeNull();
    expect(await info.jettonWallet(raw(ITEM))).toBeNull();
    expect((await info.contractData!(raw(ITEM)))?.equals(comment('data'))).toBe(true);
  });

  it('v2 std stacks and executor tuples read the same', () => {
    const c = slice(ALICE);
    const b64 = c.toBoc().toString('base64');
    expect(
      stdGetStack([
        { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '-12' } },
        { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: b64 } },
        { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: b64 } },
        { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: [] } },
      ]).map((v) => (v instanceof Cell ? v.hash().toString('hex') : v)),
    ).toEqual([-12n, c.hash().toString('hex'), c.hash().toString('hex'), null]);
    expect(tupleGetStack([{ type: 'int', value: -12n }, { type: 'slice', cell: c }, { type: 'cell', cell: c }, { type: 'null' }]).map((v) => (v instanceof Cell ? v.hash().toString('hex') : v))).toEqual([
      -12n,
      c.hash().toString('hex'),
      c.hash().toString('hex'),
      null,
    ]);
  });
});
