/**
 * The classifier's building blocks: a trace's transactions as nodes, the blocks matchers merge them into, and the
 * typed matcher every protocol file declares. The algorithm that runs them is ./classify.ts, their order
 * ./registry.ts.
 */
import type { Cell } from '@ton/core';
import type { ActionDetailsByType, ActionType } from '../../../api/v3/action-details.js';
import type { AccountStatus, ExtraCurrencies } from '../../../api/v3/common.js';
import { bocB64 } from '../../message.js';
import { COMMON_OP } from '../../tlb/common.js';
import type { Comment } from '../../tlb/comment.js';
import type { ClassifierMessage, ClassifierTransaction } from '../classifier-input.js';

/** What get-methods say about a contract (raw uppercase addresses); null when it is not one. */
export interface ContractInfo {
  /** `get_wallet_data`: the owner and the jetton master */
  jettonWallet(address: string): Promise<{ owner: string; jetton: string } | null>;
  /** `get_nft_data`: the index (decimal) and the collection */
  nftItem(address: string): Promise<{ index: string; collection: string | null } | null>;
  /** a DEX pool's two assets (DeDust `get_assets`; null stands for TON); absent when the source cannot tell */
  dexPool?(address: string): Promise<(string | null)[] | null>;
  /** a fixed-price sale contract (Getgems `get_sale_data`); absent when the source cannot tell */
  nftSale?(address: string): Promise<NftSaleInfo | null>;
  /** an auction contract (Getgems `get_auction_data`, price = the last bid); absent when the source cannot tell */
  nftAuction?(address: string): Promise<NftSaleInfo | null>;
  /** the contract's persistent data (its state's data cell); absent when the source cannot tell */
  contractData?(address: string): Promise<Cell | null>;
  /** a jVault staking pool's wallet of the jetton it locks; absent when the source cannot tell */
  jvaultLockWallet?(pool: string): Promise<string | null>;
}

/** A sale or auction contract: its marketplace, the item it sells, the seller and the price (nanoton). */
export interface NftSaleInfo {
  marketplace: string | null;
  nft: string;
  owner: string | null;
  price: string;
}

export interface Node {
  hash: string;
  tx: ClassifierTransaction;
  account: string;
  msg: ClassifierMessage;
  msgHash: string;
  body: Cell;
  opcode: number | null;
  source: string | null;
  destination: string | null;
  value: bigint | null;
  extra: ExtraCurrencies;
  /** created_lt/created_at of the message, the transaction's lt/now for external-in */
  lt: bigint;
  utime: number;
  failed: boolean;
  origStatus: AccountStatus;
  endStatus: AccountStatus;
  parent: Node | null;
  children: Node[];
}

export class Block {
  next: Block[] = [];
  prev: Block | null = null;
  children: Block[] = [];
  parent: Block | null = null;
  failed = false;
  initiating: Node | null = null;
  opcode: number | null = null;
  /** a jetton_transfer that reached the receiver's jetton wallet (a pTON transfer pays TON instead) */
  hasInternalTransfer = false;
  /** accounts the action involves beyond its transactions' (a message's named receiver) */
  extraAccounts: string[] = [];
  /** the action type a matched block is reported as (basic blocks are reported under their block type) */
  action: ActionType | null = null;
  data: Record<string, unknown> = {};

  constructor(
    readonly type: string,
    readonly nodes: Node[],
  ) {
    if (nodes.length === 1) this.initiating = nodes[0]!.parent;
  }

  get minLt(): bigint {
    return this.nodes.reduce((m, n) => (n.lt < m ? n.lt : m), this.nodes[0]!.lt);
  }
  get maxLt(): bigint {
    return this.nodes.reduce((m, n) => (n.tx.lt > m ? n.tx.lt : m), this.nodes[0]!.tx.lt);
  }
  get minUtime(): number {
    return Math.min(...this.nodes.map((n) => n.utime));
  }
  get maxUtime(): number {
    return Math.max(...this.nodes.map((n) => n.tx.now));
  }
  /** accounts activated by this block's transactions */
  get deployments(): string[] {
    return [...new Set(this.nodes.filter((n) => n.origStatus !== 'active' && n.endStatus === 'active').map((n) => n.account))];
  }
  topmost(): Block {
    return this.parent ? this.parent.topmost() : this;
  }
  connect(other: Block): void {
    this.next.push(other);
    other.prev = this;
  }
}

/** `b` and every block after it along the tree, breadth first. */
export function reachable(b: Block): Block[] {
  const out: Block[] = [];
  const queue = [b];
  while (queue.length) {
    const x = queue.shift()!;
    out.push(x);
    queue.push(...x.next);
  }
  return out;
}

export const isCall = (b: Block, op: number): boolean => b.type === 'call_contract' && b.opcode === op;

/** The details of a block a matcher made earlier, typed by its action type; null when it is another type. */
export function detailsOf<T extends ActionType>(b: Block, type: T): ActionDetailsByType[T] | null {
  return b.action === type ? (b.data as ActionDetailsByType[T]) : null;
}

/** Merges `include` (the matched block first) into `merged`, which takes its place in the tree. */
export function merge(merged: Block, include: Block[]): void {
  const members = [...new Set(include)];
  // the earliest block of the group takes the group's place (the reference's `_ensure_earliest_common_block`)
  const earliest = members.reduce((e, b) => (b.minLt < e.minLt ? b : e), members[0]!);
  for (const b of members) {
    b.parent = merged;
    merged.nodes.push(...b.nodes);
    merged.children.push(b);
  }
  const queue = [...earliest.next];
  while (queue.length) {
    const b = queue.shift()!;
    if (members.includes(b)) queue.push(...b.next);
    else if (!merged.next.includes(b)) {
      merged.next.push(b);
      b.prev = merged;
    }
  }
  merged.prev = earliest.prev;
  const prev = earliest.prev;
  if (prev) {
    const next: Block[] = [];
    for (const n of prev.next) {
      const top = n.topmost();
      if (top !== prev && !prev.children.includes(n) && !next.includes(top)) next.push(top);
    }
    prev.next = next;
  }
  merged.initiating = earliest.initiating;
}

/** Excess and bounce replies next to a matched block, which the reference merges with it. */
export const replies = (b: Block): Block[] => b.next.filter((n) => isCall(n, COMMON_OP.excesses) || isCall(n, COMMON_OP.bounce));

export const cellB64 = (c: Cell | null): string | null => (c ? bocB64(c) : null);

/** A comment as the reference stores it: UTF-8 with bad bytes escaped and NULs dropped; encrypted ones base64. */
export function commentText({ type, bytes }: Comment): string {
  if (type === 'encrypted') return bytes.toString('base64');
  let out = '';
  const dec = new TextDecoder('utf-8', { fatal: true });
  try {
    out = dec.decode(bytes);
  } catch {
    // Python's errors='backslashreplace': undecodable bytes become \xNN
    out = [...bytes].map((c) => (c < 0x80 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`)).join('');
  }
  return out.replace(/\u0000/g, '');
}

/** What a matcher found: the blocks it covers (the anchor first) and the action they become. */
export interface Match<T extends ActionType> {
  type: T;
  /** the reference's block type when it differs from the action type (the action id hashes it) */
  blockType?: string;
  include: Block[];
  details: ActionDetailsByType[T];
  failed: boolean;
  hasInternalTransfer?: boolean;
  /** accounts the action involves beyond its transactions' */
  extraAccounts?: string[];
  /**
   * the transaction that sent the group's earliest message is not the action's: the reference put a placeholder
   * block between the group and its parent (a STON.fi v2 deposit joined with its other side)
   */
  detached?: boolean;
}

/** A match of one type: a literal passed here has its details checked against the type's (a misspelt key fails). */
export const found = <T extends ActionType>(m: Match<T>): Match<T> => m;

/** One of the matcher's types, its details typed by it. */
export type MatchOf<T extends ActionType> = { [K in T]: Match<K> }[T];

/** Address-valued details keys of each type, listed in the action's `addresses` (for address_book). */
export type AddressKeys<T extends ActionType> = { readonly [K in T]: readonly (keyof ActionDetailsByType[K] & string)[] };

/** A protocol matcher: the action types it produces with their address keys, and the rule. */
export interface Matcher {
  readonly name: string;
  readonly addressKeys: Readonly<Partial<Record<ActionType, readonly string[]>>>;
  match(b: Block, info: ContractInfo): Promise<Match<ActionType> | null>;
}

export function defineMatcher<T extends ActionType>(m: {
  name: string;
  addressKeys: AddressKeys<T>;
  match(b: Block, info: ContractInfo): Promise<MatchOf<T> | null>;
}): Matcher {
  return m;
}

/** The reference keeps an NFT item's index as a double: what it prints is the index rounded to float64. */
export const storedIndex = (index: string): string => BigInt(Number(index)).toString();
