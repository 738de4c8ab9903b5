import { Cell, loadMessage, loadTransaction, type Transaction } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { messageCells } from '../../src/model/message.js';
import { txFees, txToExt, txToRaw, txToRawExt } from '../../src/model/transaction.js';
import { readSharedJson, withoutShared } from '../helpers/shared.js';

const noShared = withoutShared('the recorded transactions (zeta-node, ton-core spec BoCs, tx_with_merkle_body)');
const fixture = (name: string) => readSharedJson(`fixtures/${name}`);
const parse = (boc: Buffer) => loadTransaction(Cell.fromBoc(boc)[0]!.beginParse());

/** Recorded testnet toncenter v2 getTransactions item (Python variant, @type raw.*). */
const zeta = noShared ? null : fixture('zeta-node.v2-getTransactions-result0.json');
const zetaTx = (): Transaction => parse(Buffer.from(zeta.data, 'base64'));

describe.skipIf(noShared)('zeta testnet getTransactions item', () => {
  // collected even when skipped: an empty object then
  const out = noShared ? ({} as ReturnType<typeof txToExt>) : txToExt(zetaTx(), 0);

  it('reproduces the transaction fields', () => {
    expect(out['@type']).toBe('ext.transaction'); // recorded: raw.transaction (Python variant); C++ prints ext.transaction
    expect(out.address).toEqual(zeta.address); // bounceable EQ… although this is testnet
    expect(out.account).toBe('0:87115E4A012E747D9BCE013CE2244010C6D5E3B0F88DDBC63420519B8619E5A0');
    expect(out.utime).toBe(zeta.utime);
    expect(out.transaction_id).toEqual(zeta.transaction_id);
    expect(out.fee).toBe(zeta.fee);
    expect(out.storage_fee).toBe(zeta.storage_fee);
    expect(out.other_fee).toBe(zeta.other_fee);
  });

  it('fee = total_fees + out-message fwd_fee (+ ihr_fee)', () => {
    const tx = zetaTx();
    const { fee, storageFee, otherFee } = txFees(tx);
    expect(tx.totalFees.coins).toBe(5382285n);
    expect(fee - tx.totalFees.coins).toBe(266669n);
    expect([fee, storageFee, otherFee]).toEqual([5648954n, 154n, 5648800n]);
  });

  it('data is a BoC of the same transaction cell', () => {
    // same root cell; @ton/core orders the cells differently from tonlib's std_boc_serialize, so bytes differ
    expect(Cell.fromBase64(out.data).hash().toString('base64')).toBe(zeta.transaction_id.hash);
    expect(Cell.fromBase64(out.data).equals(Cell.fromBase64(zeta.data))).toBe(true);
  });

  it('reproduces in_msg field by field', () => {
    const rec = zeta.in_msg;
    const got = out.in_msg!;
    expect(got['@type']).toBe('ext.message'); // recorded raw.message: Python variant
    for (const k of ['hash', 'source', 'destination', 'value', 'extra_currencies', 'fwd_fee', 'ihr_fee', 'created_lt', 'body_hash', 'msg_data'] as const) {
      expect(got[k], k).toEqual(rec[k]);
    }
    // the C++ variant appends "\n" to raw-body text (back compatibility); the recorded Python-era sample has none
    expect(got.message).toBe(`${rec.message}\n`);
  });

  it('reproduces out_msgs field by field', () => {
    expect(out.out_msgs).toHaveLength(zeta.out_msgs.length);
    out.out_msgs.forEach((got, i) => {
      const { '@type': type, ...rec } = zeta.out_msgs[i];
      expect(type).toBe('raw.message');
      const { '@type': gotType, ...rest } = got;
      expect(gotType).toBe('ext.message');
      expect(rest).toEqual(rec); // empty body: message "" in both variants
    });
  });

  it('keeps toncenter member order', () => {
    const { account, ...withoutAccount } = out;
    expect(account).toBeTruthy();
    expect(Object.keys(withoutAccount)).toEqual(Object.keys(zeta));
    expect(Object.keys(out.in_msg!)).toEqual(Object.keys(zeta.in_msg));
  });

  it('std shapes use accountAddress objects and no message', () => {
    const raw = txToRaw(zetaTx(), 0);
    expect(raw['@type']).toBe('raw.transaction');
    expect('account' in raw).toBe(false);
    expect(raw.in_msg!.source).toEqual({ '@type': 'accountAddress', account_address: '' });
    expect(raw.in_msg!.destination).toEqual({ '@type': 'accountAddress', account_address: zeta.address.account_address });
    expect('message' in raw.in_msg!).toBe(false);
    expect(raw.out_msgs[0]!.hash).toBe(zeta.out_msgs[0].hash);
    const ext = txToRawExt(zetaTx(), 0);
    expect(ext['@type']).toBe('raw.transactionExt');
    expect(ext.account).toBe(out.account);
    expect(ext.transaction_id).toEqual(zeta.transaction_id);
  });
});

describe.skipIf(noShared)('ton-core Transaction.spec BoCs (mainnet)', () => {
  const cases = (noShared ? { cases: [] } : fixture('ton-core.transaction-spec-bocs.json')).cases as {
    test: string;
    boc_base64: string;
    computed: { hash_hex: string; lt: string; now: number; account_hex: string; description_type: string };
  }[];

  for (const c of cases) {
    it(c.test, () => {
      const tx = parse(Buffer.from(c.boc_base64, 'base64'));
      const wc = c.test.includes('external addresses') || c.computed.description_type === 'tick-tock' ? -1 : 0;
      const out = txToExt(tx, wc);
      expect(Buffer.from(out.transaction_id.hash, 'base64').toString('hex')).toBe(c.computed.hash_hex);
      expect(out.transaction_id.lt).toBe(c.computed.lt);
      expect(out.utime).toBe(c.computed.now);
      expect(out.account).toBe(`${wc}:${c.computed.account_hex.toUpperCase()}`);
      expect('in_msg' in out).toBe(tx.inMessage != null);
      expect(out.out_msgs).toHaveLength(tx.outMessagesCount);

      // every printed hash is the hash of the on-chain cell, which decodes to the same message
      const cells = messageCells(tx);
      if (cells.inMsg) {
        expect(out.in_msg!.hash).toBe(cells.inMsg.hash().toString('base64'));
        expect(loadMessage(cells.inMsg.beginParse()).body.hash().toString('base64')).toBe(out.in_msg!.body_hash);
      }
      cells.outMsgs.forEach((cell, i) => expect(out.out_msgs[i]!.hash).toBe(cell.hash().toString('base64')));
      const { fee, storageFee, otherFee } = txFees(tx);
      expect(BigInt(out.fee)).toBe(fee);
      expect(fee - storageFee).toBe(otherFee);
    });
  }

  it('prints an external source as "" and masterchain addresses as bounceable Ef…', () => {
    const c = cases.find((x) => x.test.includes('external addresses'))!;
    const tx = parse(Buffer.from(c.boc_base64, 'base64'));
    const out = txToExt(tx, -1);
    expect(tx.inMessage!.info.type).toBe('external-in');
    expect(tx.inMessage!.info.src).toBeTruthy(); // an addr_extern source…
    expect(out.in_msg!.source).toBe(''); // …which tonlib does not print
    expect(out.in_msg!.destination).toBe('Ef-kkdY_B7p-77TLn2hUhM6QidWrrsl8FYWCIvBMpZKprKDH');
    expect(out.address.account_address).toBe('Ef-kkdY_B7p-77TLn2hUhM6QidWrrsl8FYWCIvBMpZKprKDH');
    expect([out.in_msg!.value, out.in_msg!.fwd_fee, out.in_msg!.created_lt]).toEqual(['0', '0', '0']);
    const o = out.out_msgs[0]!;
    expect([o.source, o.destination, o.value, o.fwd_fee, o.created_lt]).toEqual([
      'Ef-kkdY_B7p-77TLn2hUhM6QidWrrsl8FYWCIvBMpZKprKDH',
      'EQDCg93lUVxmlCEks5kL8jTFcqg8lElfAi8dSee8j2jFDGWg',
      '100000000000',
      '6666718',
      '22926061000002',
    ]);
    expect(txFees(tx).fee).toBe(tx.totalFees.coins + 6666718n);
  });
});

describe.skipIf(noShared)('ton-core tx_with_merkle_body (testnet)', () => {
  it('hash matches and the exotic body falls back to msg.dataRaw', () => {
    const f = fixture('ton-core.tx_with_merkle_body.json');
    const tx = parse(Buffer.from(f.boc, 'hex'));
    const out = txToExt(tx, 0);
    expect(Buffer.from(out.transaction_id.hash, 'base64').toString('hex')).toBe(f.hash);
    const all = [out.in_msg, ...out.out_msgs].filter((m) => m !== undefined);
    expect(all.length).toBeGreaterThan(0);
    for (const m of all) expect(['msg.dataRaw', 'msg.dataText']).toContain(m.msg_data['@type']);
  });
});
