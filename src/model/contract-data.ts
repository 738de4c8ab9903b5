/**
 * Get-method results as the contract index and upstream mode's state answers read them: a typed stack reader, TEP-64 content, address lists
 * and dictionaries, TON DNS records.
 */
import type { Shared } from '../api/shared-answers.js';
import { Cell, Dictionary } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import type { StdStackEntry } from '../api/v2.js';
import { rawUpper } from './address.js';
import { parseTokenContent } from './tlb/token-content.js';

/** TEP-64 content as v3 prints it: on-chain keys as an object, off-chain as `{uri}`. */
export type Content = Record<string, string>;

/** TON DNS records of an item that answers `dnsresolve` (v3.md §2.5). */
export interface DnsEntry {
  domain: string;
  nextResolver: string | null;
  wallet: string | null;
  siteAdnl: string | null;
  storageBagId: string | null;
}

/** A get-method stack value: integers, cells (slices as their cell), null, tuples. */
export type Item = bigint | Cell | null | Item[];

export function fromStd(e: Shared<StdStackEntry>): Item {
  switch (e['@type']) {
    case 'tvm.stackEntryNumber':
      return BigInt(e.number.number);
    case 'tvm.stackEntryCell':
      return Cell.fromBase64(e.cell.bytes);
    case 'tvm.stackEntrySlice':
      return Cell.fromBase64(e.slice.bytes);
    case 'tvm.stackEntryTuple':
      return e.tuple.elements.map(fromStd);
    case 'tvm.stackEntryList':
      // an empty list is how the std stack prints a null
      return e.list.elements.length ? e.list.elements.map(fromStd) : null;
    case 'tvm.stackEntryUnsupported':
      throw new Error('unsupported stack entry');
  }
}

/** Reads a result stack in order; any mismatch throws, and the caller treats the contract as not matching. */
export class Stack {
  private i = 0;
  constructor(private readonly items: Item[]) {}

  private next(): Item {
    if (this.i >= this.items.length) throw new Error('stack underflow');
    return this.items[this.i++]!;
  }

  /** The next value as it is (tuples and lists as arrays). */
  item(): Item {
    return this.next();
  }

  int(): bigint {
    const v = this.next();
    if (typeof v !== 'bigint') throw new Error('integer expected');
    return v;
  }

  maybeInt(): bigint | null {
    const v = this.next();
    if (v !== null && typeof v !== 'bigint') throw new Error('integer expected');
    return v;
  }

  cell(): Cell {
    const v = this.next();
    if (!(v instanceof Cell)) throw new Error('cell expected');
    return v;
  }

  maybeCell(): Cell | null {
    const v = this.next();
    if (v !== null && !(v instanceof Cell)) throw new Error('cell expected');
    return v;
  }

  /** An address slice as raw uppercase; addr_none gives null. */
  address(): string | null {
    const a = this.cell().beginParse().loadMaybeAddress();
    return a ? rawUpper(a) : null;
  }

  maybeAddress(): string | null {
    const c = this.maybeCell();
    const a = c ? c.beginParse().loadMaybeAddress() : null;
    return a ? rawUpper(a) : null;
  }
}

export function contentOf(cell: Cell): { content: Content | null; onchain: boolean } {
  try {
    const c = parseTokenContent(cell);
    return c.type === 'offchain' ? { content: { uri: c.data }, onchain: false } : { content: c.data, onchain: true };
  } catch {
    return { content: null, onchain: false };
  }
}

/** TEP-74 `get_jetton_data`: (total_supply, mintable, admin_address, jetton_content, jetton_wallet_code). */
export function jettonMasterData(s: Stack): { totalSupply: bigint; mintable: boolean; admin: string | null; content: Content | null; onchain: boolean; walletCodeHash: string } {
  const totalSupply = s.int();
  const mintable = s.int() !== 0n;
  const admin = s.address();
  const { content, onchain } = contentOf(s.cell());
  const walletCode = s.cell();
  return { totalSupply, mintable, admin, content, onchain, walletCodeHash: walletCode.hash().toString('base64') };
}

/** Values of a `Hashmap 8 MsgAddressInt` (multisig signers and proposers), by index. */
export function addressList(cell: Cell | null): string[] {
  if (!cell) return [];
  const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), cell);
  return [...dict.keys()].sort((a, b) => a - b).map((k) => rawUpper(dict.get(k)!));
}

/** Keys of an address-keyed dictionary (the vesting whitelist). */
export function addressKeys(cell: Cell | null): string[] {
  if (!cell) return [];
  const dict = Dictionary.loadDirect(Dictionary.Keys.Address(), Dictionary.Values.Cell(), cell);
  return dict.keys().map(rawUpper);
}

/** TON DNS record categories (sha256 of the category name) and their TL-B tags (TEP-81). */
const DNS_CATEGORY = {
  wallet: BigInt(`0x${sha256_sync('wallet').toString('hex')}`),
  site: BigInt(`0x${sha256_sync('site').toString('hex')}`),
  nextResolver: BigInt(`0x${sha256_sync('dns_next_resolver').toString('hex')}`),
  storage: BigInt(`0x${sha256_sync('storage').toString('hex')}`),
};

export function dnsRecordsOf(records: Cell | null): Omit<DnsEntry, 'domain'> {
  const out: Omit<DnsEntry, 'domain'> = { nextResolver: null, wallet: null, siteAdnl: null, storageBagId: null };
  if (!records) return out;
  const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell(), records);
  const read = (key: bigint, tag: number): ReturnType<Cell['beginParse']> | null => {
    const v = dict.get(key);
    if (!v) return null;
    // values are stored as ^DNSRecord or inline
    const cell = v.bits.length === 0 && v.refs.length === 1 ? v.refs[0]! : v;
    const s = cell.beginParse();
    return s.remainingBits >= 16 && s.loadUint(16) === tag ? s : null;
  };
  const addr = (s: ReturnType<typeof read>): string | null => {
    const a = s?.loadMaybeAddress();
    return a ? rawUpper(a) : null;
  };
  // dns_smc_address#9fd3, dns_next_resolver#ba93, dns_adnl_address#ad01, dns_storage_address#7473
  out.wallet = addr(read(DNS_CATEGORY.wallet, 0x9fd3));
  out.nextResolver = addr(read(DNS_CATEGORY.nextResolver, 0xba93));
  const site = read(DNS_CATEGORY.site, 0xad01);
  out.siteAdnl = site ? site.loadBuffer(32).toString('hex') : null;
  const bag = read(DNS_CATEGORY.storage, 0x7473);
  out.storageBagId = bag ? bag.loadBuffer(32).toString('hex') : null;
  return out;
}
