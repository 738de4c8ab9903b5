/** TEP-81 change_dns_record: the recorded mainnet body (fixtures.ts) and every record kind built by hand. */
import { Address, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { DNS_OP, loadChangeDnsRecord } from '../../../src/model/tlb/dns.js';
import { recordedBodies } from './fixtures.js';
import { withoutShared } from '../../helpers/shared.js';

const noShared = withoutShared('the recorded mainnet change_dns_record body');

const A = Address.parse('0:' + '12'.repeat(32));
const key = Buffer.alloc(32, 7);
const change = (record: ReturnType<typeof beginCell> | null) => {
  const b = beginCell().storeUint(DNS_OP.changeDnsRecord, 32).storeUint(5, 64).storeBuffer(key);
  return (record ? b.storeBit(1).storeRef(record) : b.storeBit(0)).endCell();
};

describe('change_dns_record (TEP-81)', () => {
  it.skipIf(noShared)('reads the recorded record change', () => {
    // editDomainRecordTraceResponse: the owner's wallet points its domain's wallet record at a contract
    const [body] = recordedBodies(DNS_OP.changeDnsRecord);
    const r = loadChangeDnsRecord(body!);
    expect(r.key.length).toBe(32);
    expect(r.value).toMatchObject({ schema: 'DNSSmcAddress', flags: 0 });
    expect(r.value).toHaveProperty('address', expect.stringMatching(/^0:[0-9A-F]{64}$/));
  });

  it('reads every record kind', () => {
    const adnl = Buffer.alloc(32, 9);
    expect(loadChangeDnsRecord(change(beginCell().storeUint(0xba93, 16).storeAddress(A))).value).toEqual({ schema: 'DNSNextResolver', address: A.toRawString().toUpperCase() });
    expect(loadChangeDnsRecord(change(beginCell().storeUint(0xad01, 16).storeBuffer(adnl).storeUint(0, 8))).value).toEqual({ schema: 'DNSAdnlAddress', adnl, flags: 0 });
    expect(loadChangeDnsRecord(change(beginCell().storeUint(0x9fd3, 16).storeAddress(A).storeUint(0, 8))).value).toEqual({ schema: 'DNSSmcAddress', address: A.toRawString().toUpperCase(), flags: 0 });
    expect(loadChangeDnsRecord(change(beginCell().storeUint(0x7473, 16).storeBuffer(adnl))).value).toEqual({ schema: 'DNSStorageAddress', bagId: adnl });
    const text = beginCell().storeUint(0x1eda, 16).storeUint(2, 8).storeUint(2, 8).storeBuffer(Buffer.from('hi')).storeRef(beginCell().storeUint(1, 8).storeBuffer(Buffer.from('!')));
    expect(loadChangeDnsRecord(change(text)).value).toEqual({ schema: 'DNSText', text: 'hi!' });
    expect(loadChangeDnsRecord(change(beginCell().storeUint(0xffff, 16))).value).toEqual({ schema: 'Unknown' });
    expect(loadChangeDnsRecord(change(null))).toEqual({ queryId: 5n, key, value: null });
  });
});
