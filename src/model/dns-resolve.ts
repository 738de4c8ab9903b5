/**
 * TON DNS resolution as toncenter's v2 `dnsResolve` does it since ton-http-api-cpp 2.1.13 (toncenter-newer.md §11;
 * the steps of its `core/dns.cpp`, written here anew): the domain normalised and encoded as TEP-81 names it
 * (labels last to first, each ended by a zero byte; one zero byte first when a resolver other than the root
 * starts), then `dnsresolve(name, 0)` asked of the root (config param 4) or the given resolver, following each
 * `dns_next_resolver` for the rest of the name, at most 64 resolver calls, until one consumes all of it and
 * answers its whole record dictionary. Every answer out of the protocol is a 502 `DNS resolution: <reason>`.
 * No I/O: the caller runs the get-method.
 */
import { ADNLAddress, Address, beginCell, Cell, Dictionary, type Slice, type TupleItem } from '@ton/core';
import type { AccountAddress } from '../api/v2/objects.js';
import type { DnsEntryData, DnsResolved } from '../api/v2/accounts.js';
import { friendly } from './address.js';
import { loadDnsRecordChecked } from './tlb/dns.js';

/** resolver calls one resolution may make */
export const MAX_RESOLVER_CALLS = 64;
/** bytes of an encoded name (a get-method argument of one cell) */
export const MAX_ENCODED_NAME = 127;

/** A resolution that cannot go on: `status` and the text toncenter answers. */
export class DnsResolveError extends Error {
  constructor(
    readonly status: 422 | 502,
    message: string,
  ) {
    super(message);
    this.name = 'DnsResolveError';
  }
}

const refused = (message: string) => new DnsResolveError(422, message);
const outOfProtocol = (reason: string) => new DnsResolveError(502, `DNS resolution: ${reason}`);

export interface PreparedDomain {
  /** lower-cased, one trailing dot dropped: each entry's `name` */
  domain: string;
  /** what the first resolver is asked */
  encoded: Buffer;
}

/** A lone surrogate cannot be UTF-8, and U+FFFD is what a query's undecodable bytes became. */
const NOT_UTF8 = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\uFFFD/;

/** The domain as resolvers are asked it, or the 422 toncenter answers. */
export function prepareDomain(raw: string | undefined, customResolver: boolean): PreparedDomain {
  const given = raw ?? '';
  if (NOT_UTF8.test(given)) throw refused('domain must be valid UTF-8');
  let domain = given.toLowerCase();
  if (domain.endsWith('.')) domain = domain.slice(0, -1);
  if (domain === '' || domain.startsWith('.') || domain.endsWith('.') || domain.includes('..')) throw refused('domain must contain nonempty labels');
  const bytes = Buffer.from(domain, 'utf8');
  if (bytes.some((c) => c <= 0x20 || c === 0x7f)) throw refused('domain must not contain spaces or control characters');
  const labels = domain.split('.').reverse();
  const encoded = Buffer.concat([...(customResolver ? [Buffer.alloc(1)] : []), ...labels.flatMap((l) => [Buffer.from(l, 'utf8'), Buffer.alloc(1)])]);
  if (encoded.length > MAX_ENCODED_NAME) throw refused(`encoded domain must not exceed ${MAX_ENCODED_NAME} bytes`);
  return { domain, encoded };
}

/** The root resolver config param 4 names (a masterchain account). */
export function rootResolver(param4: Cell | undefined): Address {
  if (!param4) throw outOfProtocol('config parameter 4 is missing');
  if (param4.bits.length !== 256 || param4.refs.length !== 0) throw outOfProtocol('config parameter 4 must contain a 256-bit address');
  return new Address(-1, param4.beginParse().loadBuffer(32));
}

/** What one `dnsresolve` get-method run answered. */
export interface ResolverAnswer {
  exitCode: number;
  stack: readonly TupleItem[];
}

/** Runs `dnsresolve(name, 0)` on a resolver (the name as a slice of its bytes). */
export type ResolverCall = (resolver: Address, args: TupleItem[]) => Promise<ResolverAnswer>;

const accountAddress = (a: Address): AccountAddress => ({ '@type': 'accountAddress', account_address: friendly(a, { bounceable: true, urlSafe: true }) });

/** One record as tonlib prints it; a malformed one is a 502, an unknown one its BoC. */
function entryOf(record: Cell): DnsEntryData {
  let r;
  try {
    r = loadDnsRecordChecked(record.beginParse());
  } catch (e) {
    throw outOfProtocol(`malformed DNS record: ${(e as Error).message}`);
  }
  switch (r.schema) {
    case 'DNSText':
      return { '@type': 'dns.entryDataText', text: r.text };
    case 'DNSNextResolver':
      return { '@type': 'dns.entryDataNextResolver', resolver: accountAddress(Address.parseRaw(r.address!)) };
    case 'DNSSmcAddress':
      return { '@type': 'dns.entryDataSmcAddress', smc_address: accountAddress(Address.parseRaw(r.address!)) };
    case 'DNSAdnlAddress':
      return { '@type': 'dns.entryDataAdnlAddress', adnl_address: { '@type': 'adnlAddress', adnl_address: new ADNLAddress(r.adnl).toString() } };
    case 'DNSStorageAddress':
      return { '@type': 'dns.entryDataStorageAddress', bag_id: r.bagId.toString('base64') };
    default:
      return { '@type': 'dns.entryDataUnknown', bytes: record.toBoc({ idx: false, crc32: false }).toString('base64') };
  }
}

/** The record dictionary a resolver answered for the whole name: every category, in key order. */
function entriesOf(records: Cell, domain: string): DnsResolved {
  let dict: Dictionary<bigint, Slice>;
  try {
    dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), { serialize: () => undefined, parse: (s: Slice) => s }, records);
  } catch {
    throw outOfProtocol('invalid record dictionary');
  }
  const keys = [...dict.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const entries = keys.map((key) => {
    const value = dict.get(key)!;
    if (value.remainingBits !== 0 || value.remainingRefs !== 1) throw outOfProtocol('invalid record dictionary');
    return {
      '@type': 'dns.entry' as const,
      name: domain,
      category: Buffer.from(key.toString(16).padStart(64, '0'), 'hex').toString('base64'),
      entry: entryOf(value.loadRef()),
    };
  });
  return { '@type': 'dns.resolved', entries };
}

/** Follows delegation from `resolver` until one answers the whole name. */
export async function resolveDns(name: PreparedDomain, resolver: Address, call: ResolverCall): Promise<DnsResolved> {
  let remaining = name.encoded;
  const visited = new Set<string>();
  for (let hop = 0; hop < MAX_RESOLVER_CALLS; hop++) {
    const visit = `${resolver.toRawString()} ${remaining.toString('hex')}`;
    if (visited.has(visit)) throw outOfProtocol('resolver cycle detected');
    visited.add(visit);
    const r = await call(resolver, [
      { type: 'slice', cell: beginCell().storeBuffer(remaining).endCell() },
      { type: 'int', value: 0n },
    ]);
    if (r.exitCode !== 0 && r.exitCode !== 1) throw outOfProtocol(`dnsresolve get-method failed with exit code ${r.exitCode}`);
    const [count, record] = r.stack;
    if (r.stack.length !== 2 || count?.type !== 'int') throw outOfProtocol('expected a consumed-bit count and a record cell');
    if (count.value < -(1n << 31n) || count.value >= 1n << 31n) throw outOfProtocol('invalid consumed-bit count');
    const bits = Number(count.value);
    if (bits < 0 || bits % 8 !== 0 || bits > remaining.length * 8) throw outOfProtocol('consumed-bit count is outside the domain or not byte-aligned');
    const consumed = bits / 8;
    if (record?.type === 'null') {
      if (consumed !== 0 && consumed !== remaining.length) throw outOfProtocol('partial resolution without a next resolver');
      return { '@type': 'dns.resolved', entries: [] };
    }
    if (consumed === 0 || record?.type !== 'cell') throw outOfProtocol('invalid record cell');
    if (consumed === remaining.length) return entriesOf(record.cell, name.domain);
    // a resolver may consume a label with or without its terminating zero byte
    if (remaining[consumed - 1] !== 0 && remaining[consumed] !== 0) throw outOfProtocol('delegation splits a domain label');
    const next = entryOf(record.cell);
    if (next['@type'] !== 'dns.entryDataNextResolver') throw outOfProtocol('partial resolution did not return a next resolver');
    resolver = Address.parse(next.resolver.account_address);
    remaining = remaining.subarray(consumed);
  }
  throw outOfProtocol(`resolver hop limit exceeded (${MAX_RESOLVER_CALLS} calls)`);
}
