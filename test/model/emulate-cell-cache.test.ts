import { readFileSync } from 'node:fs';
import { Address, beginCell, Cell, Dictionary, external, ExternalAddress, internal, loadCommonMessageInfo, loadShardAccount, storeMessage, storeShardAccount, toNano } from '@ton/core';
import { createShardAccount, defaultConfig } from '@ton/sandbox';
import { WalletContractV4 } from '@ton/ton';
import { describe, expect, it } from 'vitest';
import { cellFromBase64, cellsFromBoc } from '../../src/model/emulate/cell-cache.js';
import { messageDestination, transactionOutMessages } from '../../src/model/emulate/raw-boc.js';
import { transactionMessageCells } from '../../src/model/message.js';
import { fixturePath, readSharedJson, withoutShared } from '../helpers/shared.js';

const noShared = withoutShared('BoC deserialisation with shared cells against @ton/core on recorded BoCs (ton-core spec transactions, a Merkle-proof body, a block)');

/** The same roots as @ton/core's own deserialisation: hashes, depths and the BoC written back. */
function sameAsCore(boc: Buffer): void {
  const ours = cellsFromBoc(boc);
  const core = Cell.fromBoc(boc);
  expect(ours.length).toBe(core.length);
  ours.forEach((c, i) => {
    expect(c.hash().toString('hex')).toBe(core[i]!.hash().toString('hex'));
    expect(c.depth()).toBe(core[i]!.depth());
    expect(c.level()).toBe(core[i]!.level());
    expect(c.toBoc().equals(core[i]!.toBoc())).toBe(true);
  });
}

const wallet = WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32, 7) });
const stateBoc = (balance: bigint): string =>
  beginCell()
    .store(storeShardAccount(createShardAccount({ address: wallet.address, code: wallet.init.code, data: wallet.init.data, balance })))
    .endCell()
    .toBoc()
    .toString('base64');

describe('cell-cache: BoCs read with the cells seen before shared', () => {
  it('reads what @ton/core reads: the network config (thousands of cells) and a wallet state', () => {
    sameAsCore(Buffer.from(defaultConfig, 'base64'));
    sameAsCore(Buffer.from(stateBoc(toNano('1.5')), 'base64'));
  });

  it('two states of one contract share its code cell; the changed cells are new', () => {
    const a = loadShardAccount(cellFromBase64(stateBoc(toNano('1'))).beginParse());
    const b = loadShardAccount(cellFromBase64(stateBoc(toNano('2'))).beginParse());
    const code = (sa: typeof a) => (sa.account!.storage.state.type === 'active' ? sa.account!.storage.state.state.code! : null);
    expect(code(a)).toBe(code(b));
    expect(code(a)!.hash().equals(wallet.init.code.hash())).toBe(true);
    expect(a.account!.storage.balance.coins).toBe(toNano('1'));
    expect(b.account!.storage.balance.coins).toBe(toNano('2'));
  });

  it('cells of the same bits under different children are not confused', () => {
    const leafA = beginCell().storeUint(1, 8).endCell();
    const leafB = beginCell().storeUint(2, 8).endCell();
    const x = cellFromBase64(beginCell().storeUint(9, 8).storeRef(leafA).endCell().toBoc().toString('base64'));
    const y = cellFromBase64(beginCell().storeUint(9, 8).storeRef(leafB).endCell().toBoc().toString('base64'));
    expect(x).not.toBe(y);
    expect(x.refs[0]!.beginParse().loadUint(8)).toBe(1);
    expect(y.refs[0]!.beginParse().loadUint(8)).toBe(2);
    // bit strings that differ only in length (the completion tag) stay apart too
    const short = cellFromBase64(beginCell().storeUint(1, 7).endCell().toBoc().toString('base64'));
    const long = cellFromBase64(beginCell().storeUint(2, 8).endCell().toBoc().toString('base64'));
    expect(short.bits.length).toBe(7);
    expect(long.bits.length).toBe(8);
  });

  it('refuses a BoC that is cut short or whose checksum is wrong', () => {
    const boc = Buffer.from(stateBoc(toNano('3')), 'base64');
    expect(() => cellsFromBoc(boc.subarray(0, boc.length - 20))).toThrow();
    const bad = Buffer.from(boc);
    bad[bad.length - 1] = bad[bad.length - 1]! ^ 0xff;
    expect(() => cellsFromBoc(bad)).toThrow();
    expect(() => cellFromBase64('')).toThrow();
  });

  it("a transaction's out-messages cut out as bytes: the same cells, order and destinations as @ton/core reads", () => {
    const to = (n: number): Address => new Address(0, Buffer.alloc(32, n));
    // one body shared by two messages (the sub-BoCs must each hold it), a message with a deep body (over 256 cells in all), an external-out
    const shared = beginCell().storeUint(0xabcdef, 24).storeRef(beginCell().storeUint(1, 8)).endCell();
    let deep = beginCell().storeUint(0, 1).endCell();
    for (let i = 0; i < 300; i++) deep = beginCell().storeUint(i, 16).storeRef(deep).endCell();
    const msgs = [
      internal({ to: to(1), value: toNano('1'), body: shared }),
      { ...external({ to: to(9), body: shared }), info: { type: 'external-out' as const, src: to(5), dest: null, createdLt: 7n, createdAt: 1 } },
      internal({ to: to(2), value: toNano('2'), body: deep }),
      internal({ to: to(3), value: 3n, body: shared }),
    ].map((m) => beginCell().store(storeMessage({ ...m, info: m.info.type === 'internal' ? { ...m.info, src: to(5), createdLt: 5n, createdAt: 1 } : m.info } as never)).endCell());
    const dict = Dictionary.empty(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
    msgs.forEach((m, i) => dict.set(i, m));
    for (const inMsg of [undefined, msgs[0]!]) {
      const io = beginCell().storeMaybeRef(inMsg).storeDict(dict).endCell();
      const tx = beginCell().storeUint(7, 4).storeRef(io).endCell();
      const ours = transactionOutMessages(tx.toBoc());
      const core = transactionMessageCells(tx).outMsgs;
      expect(ours.map((m) => Cell.fromBoc(m.boc)[0]!.hash().toString('hex'))).toEqual(core.map((c) => c.hash().toString('hex')));
      expect(ours.map((m) => m.dest?.toRawString())).toEqual(core.map((c) => {
        const info = loadCommonMessageInfo(c.beginParse());
        return info.type === 'internal' ? info.dest.toRawString() : undefined;
      }));
    }
    const none = beginCell().storeUint(7, 4).storeRef(beginCell().storeMaybeRef(null).storeDict(null)).endCell();
    expect(transactionOutMessages(none.toBoc())).toEqual([]);
  });

  it("a message's destination read from its header as bytes: internal, external-in from no address or an external one, external-out", () => {
    const to = new Address(-1, Buffer.alloc(32, 0x5a));
    const body = beginCell().storeUint(0xfeed, 16).storeRef(beginCell().storeUint(1, 8)).endCell();
    const boc = (m: Parameters<typeof storeMessage>[0]): Buffer => beginCell().store(storeMessage(m)).endCell().toBoc();
    const int = internal({ to, value: toNano('1'), body });
    expect(messageDestination(boc({ ...int, info: { ...int.info, src: new Address(0, Buffer.alloc(32, 1)), createdLt: 5n, createdAt: 1 } } as never))?.equals(to)).toBe(true);
    expect(messageDestination(boc(external({ to, body })))?.equals(to)).toBe(true);
    const extSrc = new ExternalAddress(0x1234n, 13);
    expect(messageDestination(boc({ info: { type: 'external-in', src: extSrc, dest: to, importFee: 0n }, body }))?.equals(to)).toBe(true);
    expect(messageDestination(boc({ info: { type: 'external-out', src: to, dest: null, createdLt: 1n, createdAt: 1 }, body }))).toBeUndefined();
  });

  describe.skipIf(noShared)('recorded BoCs', () => {
    it('transactions, a body holding a Merkle proof (exotic cells), a block with pruned branches', () => {
      const spec = readSharedJson<{ cases: { boc_base64: string }[] }>('fixtures/ton-core.transaction-spec-bocs.json');
      for (const c of spec.cases) sameAsCore(Buffer.from(c.boc_base64, 'base64'));
      // their out-messages cut out as bytes, as an emulator worker reads them
      for (const c of spec.cases) {
        const boc = Buffer.from(c.boc_base64, 'base64');
        const core = transactionMessageCells(Cell.fromBoc(boc)[0]!).outMsgs;
        expect(transactionOutMessages(boc).map((m) => Cell.fromBoc(m.boc)[0]!.hash().toString('hex'))).toEqual(core.map((m) => m.hash().toString('hex')));
      }
      const merkle = readSharedJson<{ boc: string }>('fixtures/ton-core.tx_with_merkle_body.json');
      sameAsCore(Buffer.from(merkle.boc, 'hex'));
      sameAsCore(Buffer.from(readFileSync(fixturePath('ton-core.block2.b64.txt'), 'utf8').trim(), 'base64'));
    });
  });
});
