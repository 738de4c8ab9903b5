/**
 * A message reaches its receiver as the cell its sender created. @ton/core would store a small StateInit
 * inline; a contract may store it as a reference, and re-serialising it would change the message hash
 * between the sender's out_msgs and the receiver's in_msg. Here a v4 wallet sends exactly such a message.
 */
import { sign } from '@ton/crypto';
import { Address, beginCell, Cell, external, storeCommonMessageInfoRelaxed, storeMessage, storeStateInit } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalChain } from '../../../src/sources/localnet/index.js';

let chain: LocalChain;

beforeAll(async () => {
  chain = await LocalChain.create({ seed: 'exact-messages-test', blockInterval: 0 });
}, 120_000);

afterAll(async () => {
  await chain?.close();
});

/** A v4r2 external body carrying one raw internal message cell (wallet id 698983191, workchain 0). */
function v4Body(secretKey: Buffer, seqno: number, validUntil: number, mode: number, msg: Cell): Cell {
  const unsigned = beginCell().storeUint(698983191, 32).storeUint(validUntil, 32).storeUint(seqno, 32).storeUint(0, 8).storeUint(mode, 8).storeRef(msg).endCell();
  return beginCell().storeBuffer(sign(unsigned.hash(), secretKey)).storeSlice(unsigned.beginParse()).endCell();
}

describe('messages travel as created', () => {
  it('an internal message with its StateInit in a reference keeps its hash from sender to receiver', async () => {
    const alice = chain.keyedWallets().find((w) => w.name === 'alice')!;
    // a tiny contract (empty code: it returns at once) at the address its StateInit gives
    const init = { code: beginCell().endCell(), data: beginCell().storeUint(42, 32).endCell() };
    const initCell = beginCell().store(storeStateInit(init)).endCell();
    const target = new Address(0, initCell.hash());
    const internal = beginCell()
      .store(
        storeCommonMessageInfoRelaxed({
          type: 'internal',
          ihrDisabled: true,
          bounce: false,
          bounced: false,
          dest: target,
          value: { coins: 50_000_000n },
          ihrFee: 0n,
          forwardFee: 0n,
          createdLt: 0n,
          createdAt: 0,
        }),
      )
      .storeBit(1) // init present
      .storeBit(1) // ... as a reference, where @ton/core would store this small one inline
      .storeRef(initCell)
      .storeBit(0) // body inline, empty
      .endCell();

    const seqno = (await chain.v2.getWalletInformation({ address: alice.contract.address })).seqno!;
    const body = v4Body(alice.keyPair.secretKey, seqno, Math.floor(Date.now() / 1000) + 60, 3, internal);
    const boc = beginCell().store(storeMessage(external({ to: alice.contract.address, body }))).endCell().toBoc();
    await chain.v2.sendBoc({ boc });

    const store = chain.store;
    const received = store.accountTransactions(target);
    expect(received).toHaveLength(1);
    const deployTx = received[0]!;
    expect(deployTx.tx.endStatus).toBe('active');
    const sender = store.tx(deployTx.parentHash!)!;
    expect(sender.account.equals(alice.contract.address)).toBe(true);
    expect(sender.outMsgHashes).toEqual([deployTx.inMsgHash]);
    // the wallet sent it with the StateInit still in a reference
    expect(store.message(deployTx.inMsgHash!)!.cell.refs[0]!.hash().equals(initCell.hash())).toBe(true);
    // and the store links the one message to both transactions
    const rec = store.message(deployTx.inMsgHash!)!;
    expect(rec.sourceTxHash).toBe(sender.hash);
    expect(rec.destTxHash).toBe(deployTx.hash);
  });

  it('every sealed transaction caused by another received one of its parent\'s out-messages', () => {
    const store = chain.store;
    const children = store.sealedTransactions().filter((t) => t.parentHash);
    expect(children.length).toBeGreaterThan(20);
    for (const t of children) expect(store.tx(t.parentHash!)!.outMsgHashes, t.hash).toContain(t.inMsgHash);
  });
});
