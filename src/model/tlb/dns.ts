/**
 * TON DNS record changes (TEP-81), as a DNS item receives them.
 *
 * TL-B (TEP-81, `dns_smc_address`… from the DNS standard's `dns.tlb`):
 *   change_dns_record#4eb1f0f9 query_id:uint64 key:bits256 value:(Maybe ^DNSRecord)
 *   dns_next_resolver#ba93 resolver:MsgAddressInt = DNSRecord;
 *   dns_adnl_address#ad01 adnl_addr:bits256 flags:(## 8) { flags <= 1 } proto_list:flags . 0?ProtoList = DNSRecord;
 *   dns_smc_address#9fd3 smc_addr:MsgAddressInt flags:(## 8) { flags <= 1 } cap_list:flags . 0?SmcCapList = DNSRecord;
 *   dns_storage_address#7473 bag_id:bits256 = DNSRecord;
 *   dns_text#1eda _:Text = DNSRecord;   text$_ chunks:(## 8) rest:(TextChunks chunks) = Text;
 *   chunk_ref$_ {n:#} ref:^(TextChunks (n + 1)) = TextChunkRef (n + 1);
 *   text_chunk$_ {n:#} len:(## 8) data:(bits (len * 8)) next:(TextChunkRef n) = TextChunks (n + 1);
 *   proto_list_nil$0 = ProtoList;  proto_list_next$1 head:Protocol tail:ProtoList = ProtoList;  proto_http#4854 = Protocol;
 *   cap_list_nil$0 = SmcCapList;  cap_list_next$1 head:SmcCapability tail:SmcCapList = SmcCapList;
 *   cap_method_seqno#5371 = SmcCapability;  cap_method_pubkey#71f4 = SmcCapability;  cap_is_wallet#2177 = SmcCapability;
 *   cap_name#ff name:Text = SmcCapability;
 */
import type { Cell, Slice } from '@ton/core';
import { addrOrNull } from '../v3/common.js';

export const DNS_OP = { changeDnsRecord: 0x4eb1f0f9 } as const;

export type DnsRecord =
  | { schema: 'DNSNextResolver'; address: string | null }
  | { schema: 'DNSAdnlAddress'; adnl: Buffer; flags: number }
  | { schema: 'DNSSmcAddress'; address: string | null; flags: number }
  | { schema: 'DNSStorageAddress'; bagId: Buffer }
  | { schema: 'DNSText'; text: string }
  | { schema: 'Unknown' };

export interface ChangeDnsRecord {
  queryId: bigint;
  /** sha256 of the record name, 32 bytes */
  key: Buffer;
  /** null: the record is deleted (or, for the zero key, the domain renewed) */
  value: DnsRecord | null;
}

function loadText(s: Slice): string {
  let chunks = s.loadUint(8);
  let cur = s;
  let text = '';
  while (chunks > 0) {
    const len = cur.loadUint(8);
    text += cur.loadBuffer(len).toString('utf8');
    chunks -= 1;
    if (chunks > 0) cur = cur.loadRef().beginParse();
  }
  return text;
}

/** The DNSRecord tags, as resolvers store them. */
export const DNS_RECORD_TAGS = { nextResolver: 0xba93, adnlAddress: 0xad01, smcAddress: 0x9fd3, storageAddress: 0x7473, text: 0x1eda } as const;

function loadDnsRecord(s: Slice): DnsRecord {
  switch (s.loadUint(16)) {
    case 0xba93:
      return { schema: 'DNSNextResolver', address: addrOrNull(s.loadAddress()) };
    case 0xad01:
      return { schema: 'DNSAdnlAddress', adnl: s.loadBuffer(32), flags: s.loadUint(8) };
    case 0x9fd3:
      return { schema: 'DNSSmcAddress', address: addrOrNull(s.loadAddress()), flags: s.loadUint(8) };
    case 0x7473:
      return { schema: 'DNSStorageAddress', bagId: s.loadBuffer(32) };
    case 0x1eda:
      return { schema: 'DNSText', text: loadText(s) };
    default:
      return { schema: 'Unknown' };
  }
}

/**
 * A DNSRecord read as its TL-B says, constraints and lists included: anything malformed throws. A record whose
 * tag is none of the five (or shorter than one) is `Unknown`.
 */
export function loadDnsRecordChecked(s: Slice): DnsRecord {
  if (s.remainingBits < 16) return { schema: 'Unknown' };
  const r = loadDnsRecord(s);
  if (r.schema === 'DNSAdnlAddress' || r.schema === 'DNSSmcAddress') {
    if (r.flags > 1) throw new Error(`${r.schema} flags ${r.flags} > 1`);
    if (r.flags & 1) (r.schema === 'DNSAdnlAddress' ? skipProtoList : skipCapList)(s);
  }
  return r;
}

function skipProtoList(s: Slice): void {
  while (s.loadBit()) if (s.loadUint(16) !== 0x4854) throw new Error('unknown Protocol');
}

function skipCapList(s: Slice): void {
  while (s.loadBit()) {
    if (s.preloadUint(8) === 0xff) {
      s.skip(8);
      loadText(s);
      continue;
    }
    const cap = s.loadUint(16);
    if (cap !== 0x5371 && cap !== 0x71f4 && cap !== 0x2177) throw new Error('unknown SmcCapability');
  }
}

export function loadChangeDnsRecord(body: Cell): ChangeDnsRecord {
  const s = body.beginParse();
  if (s.loadUint(32) !== DNS_OP.changeDnsRecord) throw new Error('not change_dns_record');
  const queryId = s.loadUintBig(64);
  const key = s.loadBuffer(32);
  // the reference reads a value whenever a ref follows, without the Maybe bit
  const value = s.remainingRefs > 0 ? loadDnsRecord(s.loadRef().beginParse()) : null;
  return { queryId, key, value };
}
