import { Address, beginCell, Cell, comment, external, ExternalAddress, internal, loadMessage, loadTransaction, storeMessage, type Message } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { describe, expect, it } from 'vitest';
import {
  decodeMsgData,
  legacyMessageText,
  messageCells,
  msgToExt,
  msgToRaw,
  normalizedHash,
} from '../../src/model/message.js';
import { COMMENT_OP } from '../../src/model/tlb/comment.js';
import { readSharedJson, withoutShared } from '../helpers/shared.js';

const noShared = withoutShared('the checks against the recorded testnet transaction (zeta-node.v2-getTransactions-result0.json)');
const zeta = noShared ? null : readSharedJson('fixtures/zeta-node.v2-getTransactions-result0.json');
const zetaTx = () => loadTransaction(Cell.fromBase64(zeta.data).beginParse());
const cellOf = (m: Message) => beginCell().store(storeMessage(m)).endCell();
const dest = Address.parse('EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N');

describe('messageCells', () => {
  it.skipIf(noShared)('returns the exact on-chain cells', () => {
    const tx = zetaTx();
    const cells = messageCells(tx);
    expect(cells.inMsg!.hash().toString('base64')).toBe(zeta.in_msg.hash);
    expect(cells.outMsgs.map((c) => c.hash().toString('base64'))).toEqual(zeta.out_msgs.map((m: { hash: string }) => m.hash));
    expect(cells.inMsg!.equals(tx.raw.refs[0]!.refs[0]!)).toBe(true);
  });
});

describe('normalizedHash (TEP-467)', () => {
  it.skipIf(noShared)('equals the raw hash for the recorded ext-in (no init, body already in a ref, src none)', () => {
    const tx = zetaTx();
    const { inMsg } = messageCells(tx);
    expect(normalizedHash(tx.inMessage!).toString('base64')).toBe(zeta.in_msg.hash);
    expect(normalizedHash(tx.inMessage!, inMsg).equals(inMsg!.hash())).toBe(true);
  });

  it('drops init, source and import fee and moves an inline body into a ref', () => {
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32, 7) });
    const body = beginCell().storeUint(0xdeadbeef, 32).endCell();
    const deploy = external({ to: wallet.address, init: wallet.init, body });
    const plain = external({ to: wallet.address, body });
    const withSrc: Message = { ...plain, info: { type: 'external-in', src: new ExternalAddress(5n, 8), dest: wallet.address, importFee: 3n } };
    const expected = beginCell()
      .storeUint(0b10, 2) // ext_in_msg_info$10
      .storeUint(0, 2) // src: addr_none
      .storeAddress(wallet.address)
      .storeCoins(0) // import_fee
      .storeBit(false) // init: nothing
      .storeBit(true) // body: ^Cell
      .storeRef(body)
      .endCell()
      .hash();
    for (const m of [deploy, plain, withSrc]) expect(normalizedHash(m).equals(expected)).toBe(true);
    expect(cellOf(deploy).hash().equals(expected)).toBe(false);
    expect(cellOf(plain).hash().equals(expected)).toBe(false); // storeMessage keeps a small body inline
  });

  it('is the plain cell hash for internal messages', () => {
    const m = internal({ to: dest, value: 5n, body: comment('hi') });
    const full: Message = { ...m, info: { ...m.info, src: dest } } as Message;
    const cell = cellOf(full);
    expect(normalizedHash(full, cell).equals(cell.hash())).toBe(true);
    expect(normalizedHash(full).equals(cell.hash())).toBe(true);
  });
});

const withBody = (body: Cell, init?: Message['init']): Message => {
  const m = internal({ to: dest, value: 1n, body, init: init ?? undefined });
  return { ...m, info: { ...m.info, src: dest, createdLt: 7n } } as Message;
};

describe('decodeMsgData / legacyMessageText (tonlib rules)', () => {
  it('text comment: text is base64 of the UTF-8 snake string, message the decoded text', () => {
    const long = 'привет '.repeat(40); // > 127 bytes: snake continues in refs
    const m = withBody(comment(long));
    expect(decodeMsgData(m)).toEqual({ '@type': 'msg.dataText', text: Buffer.from(long, 'utf8').toString('base64') });
    expect(legacyMessageText(m)).toBe(long);
  });

  it('encrypted comment op 0x2167da4b gives msg.dataEncryptedText', () => {
    const payload = Buffer.from('00112233445566778899', 'hex');
    const m = withBody(beginCell().storeUint(COMMENT_OP.encrypted, 32).storeBuffer(payload).endCell());
    expect(decodeMsgData(m)).toEqual({ '@type': 'msg.dataEncryptedText', text: payload.toString('base64') });
  });

  it('op 1 and other ops are raw (current tonlib decrypts only op 0x2167da4b)', () => {
    for (const op of [1, 0x0f8a7ea5]) {
      const body = beginCell().storeUint(op, 32).storeUint(5, 64).endCell();
      const m = withBody(body);
      expect(decodeMsgData(m)).toEqual({ '@type': 'msg.dataRaw', body: body.toBoc().toString('base64'), init_state: '' });
      expect(legacyMessageText(m)).toBe(`${body.bits.subbuffer(0, 96)!.toString('base64')}\n`);
    }
  });

  it('op 0 with a non-byte-aligned rest is raw, and the message text zeroes the trailing bits', () => {
    const body = beginCell().storeUint(0, 32).storeUint(0b101, 3).endCell();
    const m = withBody(body);
    expect(decodeMsgData(m)['@type']).toBe('msg.dataRaw');
    expect(legacyMessageText(m)).toBe(`${Buffer.from([0, 0, 0, 0, 0b10100000]).toString('base64')}\n`);
    expect(legacyMessageText(m, { trailingNewline: false })).toBe(Buffer.from([0, 0, 0, 0, 0b10100000]).toString('base64'));
  });

  it('short and empty bodies', () => {
    const empty = withBody(Cell.EMPTY);
    expect(decodeMsgData(empty)).toEqual({ '@type': 'msg.dataRaw', body: 'te6cckEBAQEAAgAAAEysuc0=', init_state: '' });
    expect(legacyMessageText(empty)).toBe('');
    const short = withBody(beginCell().storeUint(0, 16).endCell());
    expect(decodeMsgData(short)['@type']).toBe('msg.dataRaw');
  });

  it('init_state is the StateInit BoC', () => {
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32, 9) });
    const m = withBody(beginCell().storeUint(3, 32).endCell(), wallet.init);
    const data = decodeMsgData(m);
    expect(data['@type']).toBe('msg.dataRaw');
    const init = Cell.fromBase64((data as { init_state: string }).init_state);
    expect(init.refs[0]!.equals(wallet.init.code)).toBe(true);
    expect(init.refs[1]!.equals(wallet.init.data)).toBe(true);
  });

  it.skipIf(noShared)('recorded raw bodies: zeta in_msg and out_msg', () => {
    const tx = zetaTx();
    expect(decodeMsgData(tx.inMessage!)).toEqual(zeta.in_msg.msg_data);
    expect(legacyMessageText(tx.inMessage!, { trailingNewline: false })).toBe(zeta.in_msg.message);
    const out = tx.outMessages.get(0)!;
    expect(decodeMsgData(out)).toEqual(zeta.out_msgs[0].msg_data);
    expect(legacyMessageText(out)).toBe(zeta.out_msgs[0].message);
  });
});

describe('msgToExt / msgToRaw', () => {
  it('internal message fields and shapes', () => {
    const m = withBody(comment('hello'));
    const cell = cellOf(m);
    const ext = msgToExt(m, cell);
    expect(ext).toEqual({
      '@type': 'ext.message',
      hash: cell.hash().toString('base64'),
      source: dest.toString(),
      destination: dest.toString(),
      value: '1',
      extra_currencies: [],
      fwd_fee: '0',
      ihr_fee: '0',
      created_lt: '7',
      body_hash: comment('hello').hash().toString('base64'),
      msg_data: { '@type': 'msg.dataText', text: Buffer.from('hello').toString('base64') },
      message: 'hello',
    });
    const raw = msgToRaw(m, cell);
    expect(raw['@type']).toBe('raw.message');
    expect(raw.source).toEqual({ '@type': 'accountAddress', account_address: dest.toString() });
    expect('message' in raw).toBe(false);
  });

  it('non-bounceable and testnet senders still print as bounceable EQ…', () => {
    const m = internal({ to: dest, value: 1n, bounce: false });
    const full = { ...m, info: { ...m.info, src: dest } } as Message;
    const ext = msgToExt(full, cellOf(full));
    expect(ext.destination.startsWith('EQ')).toBe(true);
  });

  it('ext-out: destination "", zero value and fees, created_lt kept', () => {
    const m: Message = {
      info: { type: 'external-out', src: dest, dest: new ExternalAddress(1n, 4), createdLt: 42n, createdAt: 1 },
      body: beginCell().storeUint(1, 8).endCell(),
    };
    const ext = msgToExt(m, cellOf(m));
    expect([ext.source, ext.destination, ext.value, ext.fwd_fee, ext.ihr_fee, ext.created_lt]).toEqual([dest.toString(), '', '0', '0', '0', '42']);
  });

  it.skipIf(noShared)('round-trips through loadMessage of the same cell', () => {
    const { inMsg } = messageCells(zetaTx());
    const m = loadMessage(inMsg!.beginParse());
    expect(msgToExt(m, inMsg!).hash).toBe(zeta.in_msg.hash);
  });
});
