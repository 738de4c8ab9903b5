/**
 * A reference case's recorded trace (`traces/<id>.lz4`: LZ4-compressed msgpack of the indexer's rows, see the
 * cases' ORIGINS.md) as the classifier's input, and what its `interfaces` say about the accounts, answered as the
 * reference's test repository answers them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { Cell } from '@ton/core';
import { decode } from '@msgpack/msgpack';
import lz4 from 'lz4js';
import type { AccountStatus } from '../../../src/api/v3/common.js';
import type { ClassifierMessage, ClassifierTransaction } from '../../../src/model/v3/classifier-input.js';
import type { ContractInfo } from '../../../src/model/v3/actions/index.js';

type Num = number | bigint | null;

interface MessageRow {
  msg_hash: string;
  direction: 'in' | 'out';
  source: string | null;
  destination: string | null;
  value: Num;
  created_lt: Num;
  created_at: Num;
  opcode: number | null;
  bounce: boolean | null;
  bounced: boolean | null;
  body_hash: string | null;
  value_extra_currencies: Record<string, Num> | null;
  message_content?: { body: string } | null;
}

interface TransactionRow {
  hash: string;
  account: string;
  lt: Num;
  now: number;
  orig_status: AccountStatus;
  end_status: AccountStatus;
  aborted: boolean | null;
  compute_mode?: number | null;
  compute_exit_code?: number | null;
  messages: MessageRow[];
}

/** An account's interfaces, as the recorder stored them (only the members read here are typed). */
interface Interfaces {
  JettonWallet?: { owner: string; jetton: string };
  NftItem?: { index: Num; collection_address: string | null };
  DedustPool?: { assets: { is_ton: boolean; address: string | null }[] };
  NftSale?: { marketplace_address: string | null; nft_address: string; nft_owner_address: string | null; full_price: Num };
  NftAuction?: { mp_addr: string | null; nft_addr: string; nft_owner: string | null; last_bid: Num };
  /** the reference's `get_extra_data(address, "data_boc")`: the account's data, and what its indexer read from it */
  data_boc?: { data_boc: string; lock_wallet_address?: string };
}

export interface RecordedTrace {
  transactions: TransactionRow[];
  interfaces: Record<string, Interfaces>;
  message_contents?: { hash: string; body: string }[];
}

/** Trace files are named by the trace id, mostly in URL-safe base64 (the cases spell the id either way). */
export function loadTrace(dir: URL, traceId: string): RecordedTrace {
  const names = [traceId.replace(/\+/g, '-').replace(/\//g, '_'), traceId.replace(/-/g, '+').replace(/_/g, '/'), traceId];
  const file = names.map((n) => new URL(`traces/${n}.lz4`, dir)).find((u) => existsSync(u));
  if (!file) throw new Error(`no trace file for ${traceId}`);
  const raw = lz4.decompress(readFileSync(file));
  return decode(raw, { useBigInt64: true }) as RecordedTrace;
}

/** A recorded integer; numbers above 2^53 were stored as floats and arrive rounded. */
const big = (v: Num): bigint | null => (v === null || v === undefined ? null : typeof v === 'bigint' ? v : BigInt(Math.trunc(v)));
const hex = (b64: string): string => Buffer.from(b64, 'base64').toString('hex');

function message(m: MessageRow, bodies: Map<string, string>): ClassifierMessage {
  const boc = m.message_content?.body ?? (m.body_hash ? bodies.get(m.body_hash) : undefined);
  const extra: Record<string, string> = {};
  for (const [id, amount] of Object.entries(m.value_extra_currencies ?? {})) extra[id] = String(big(amount));
  return {
    hash: m.msg_hash,
    source: m.source,
    destination: m.destination,
    value: big(m.value),
    extraCurrencies: extra,
    // the database keeps opcodes as signed 32-bit integers
    opcode: m.opcode === null ? null : m.opcode >>> 0,
    bounce: m.bounce === true,
    bounced: m.bounced === true,
    body: boc ? Cell.fromBase64(boc) : Cell.EMPTY,
    createdLt: big(m.created_lt),
    createdAt: m.created_at === null ? null : Number(m.created_at),
  };
}

/** The trace's transactions with their parents (the transaction whose out-message is their in-message). */
export function classifierInput(trace: RecordedTrace): ClassifierTransaction[] {
  const bodies = new Map((trace.message_contents ?? []).map((c) => [c.hash, c.body]));
  const sender = new Map<string, string>();
  for (const t of trace.transactions) for (const m of t.messages) if (m.direction === 'out') sender.set(m.msg_hash, t.hash);
  return trace.transactions.map((t) => {
    const inMsg = t.messages.find((m) => m.direction === 'in');
    const parent = inMsg ? sender.get(inMsg.msg_hash) : undefined;
    return {
      hash: hex(t.hash),
      ...(parent ? { parentHash: hex(parent) } : {}),
      account: t.account,
      lt: big(t.lt)!,
      now: t.now,
      aborted: t.aborted === true,
      noGas: false,
      ...(typeof t.compute_exit_code === 'number' ? { exitCode: t.compute_exit_code } : {}),
      origStatus: t.orig_status,
      endStatus: t.end_status,
      inMsg: inMsg ? message(inMsg, bodies) : null,
      extOutMsgs: t.messages.filter((m) => m.direction === 'out' && m.destination === null).map((m) => message(m, bodies)),
    };
  });
}

/** What the recorded interfaces say; an account without the interface is not one. */
export function contractInfo(trace: RecordedTrace): ContractInfo {
  const of = (addr: string): Interfaces => trace.interfaces[addr] ?? {};
  return {
    jettonWallet: async (addr) => {
      const w = of(addr).JettonWallet;
      return w ? { owner: w.owner, jetton: w.jetton } : null;
    },
    nftItem: async (addr) => {
      const item = of(addr).NftItem;
      return item ? { index: String(big(item.index) ?? 0n), collection: item.collection_address } : null;
    },
    dexPool: async (addr) => of(addr).DedustPool?.assets.map((a) => (a.is_ton ? null : a.address)) ?? null,
    nftSale: async (addr) => {
      const sale = of(addr).NftSale;
      return sale ? { marketplace: sale.marketplace_address, nft: sale.nft_address, owner: sale.nft_owner_address, price: String(big(sale.full_price) ?? 0n) } : null;
    },
    nftAuction: async (addr) => {
      const auction = of(addr).NftAuction;
      return auction ? { marketplace: auction.mp_addr, nft: auction.nft_addr, owner: auction.nft_owner, price: String(big(auction.last_bid) ?? 0n) } : null;
    },
    contractData: async (addr) => {
      const data = of(addr).data_boc?.data_boc;
      return data ? Cell.fromBase64(data) : null;
    },
    jvaultLockWallet: async (addr) => of(addr).data_boc?.lock_wallet_address ?? null,
  };
}
