/**
 * Actions of a trace (v3.md §4): the reference's block-tree classification, over decoded transactions.
 *
 * How the reference does it (`indexer/indexer/events/` of toncenter/ton-indexer at eb9fbfa3):
 * - every transaction of the trace is a node holding its inbound message; each node starts as a `ton_transfer`
 *   block (opcode 0, none or encrypted comment, with a source and destination) or a `call_contract` block, linked
 *   parent → children; a node whose account goes from uninit/nonexist to active also holds a `contract_deploy`;
 * - matchers run in a fixed order (nft_mint, jetton_transfer, jetton_burn, nft_transfer, jetton_mint here) over
 *   every block not yet merged, and a match merges the blocks it covers (with excess and bounce replies next to
 *   them) into one block, so covered transfers are not reported on their own;
 * - each remaining block is an action, except `call_contract` from an external (no source) or to nowhere;
 *   `contract_deploy` blocks found anywhere under them are actions too;
 * - an action's transactions are its nodes' plus the transaction that sent its first message; its lt/utime
 *   window starts at that message's created_lt/created_at and ends at its last transaction;
 * - `action_id` = base64(sha256(utf8(<in-message hash, base64, of its earliest node> + <type>)))
 *   (`block_tree_serializer.py` `_calc_action_id`).
 * v1 types never nest other actions (`serialize_blocks` stops there), so every action here has no ancestors.
 *
 * Pure: which contract is a jetton wallet or an NFT item comes from the caller's `ContractInfo` (get-methods).
 */
import { sha256_sync } from '@ton/crypto';
import type { Cell, Message, Transaction } from '@ton/core';
import type { AccountStatus, ExtraCurrencies } from '../../api/v3.js';
import { bocB64 } from '../message.js';
import { accountStatus, b64, extraCurrencyMap, opcodeHex, rawUpper } from './common.js';
import {
  OP,
  parseJettonBurn,
  parseJettonInternalTransfer,
  parseJettonMint,
  parseJettonTransfer,
  parseNftOwnershipAssigned,
  parseNftTransfer,
  payloadComment,
  snakeBytes,
} from './decode.js';
import { messageOpcode } from './message.js';

/** One transaction of a trace, as the classifier reads it. */
export interface ClassifierTx {
  /** hex */
  hash: string;
  /** hex hash of the transaction whose out-message caused this one */
  parentHash?: string;
  tx: Transaction;
  /** the inbound message and its cell (its hash is the message hash) */
  inMsg: { msg: Message; cell: Cell } | null;
}

/** What get-methods say about a contract (raw uppercase addresses); null when it is not one. */
export interface ContractInfo {
  /** `get_wallet_data`: the owner and the jetton master */
  jettonWallet(address: string): Promise<{ owner: string; jetton: string } | null>;
  /** `get_nft_data`: the index (decimal) and the collection */
  nftItem(address: string): Promise<{ index: string; collection: string | null } | null>;
}

/** An action before the trace-level fields (trace id, trace end, finality) are added. */
export interface ClassifiedAction {
  type: string;
  actionId: string;
  /** hex hashes, by lt */
  txHashes: string[];
  startLt: bigint;
  endLt: bigint;
  startUtime: number;
  endUtime: number;
  success: boolean;
  details: Record<string, unknown>;
  /** raw uppercase, in the order first seen */
  accounts: string[];
  ancestorTypes: string[];
  /** every address the details name, for address_book */
  addresses: string[];
}

interface Node {
  hash: string;
  txHashB64: string;
  tx: Transaction;
  account: string;
  msg: Message;
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

class Block {
  next: Block[] = [];
  prev: Block | null = null;
  children: Block[] = [];
  parent: Block | null = null;
  failed = false;
  initiating: Node | null = null;
  opcode: number | null = null;
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

const isCall = (b: Block, op: number): boolean => b.type === 'call_contract' && b.opcode === op;

function aborted(tx: Transaction): boolean {
  const d = tx.description;
  return 'aborted' in d ? d.aborted : false;
}

function toNode(t: ClassifierTx, parent: Node | null): Node | null {
  if (!t.inMsg) return null;
  const { msg, cell } = t.inMsg;
  const info = msg.info;
  const account = info.type === 'external-out' ? null : rawUpper(info.dest);
  if (!account) return null;
  const internal = info.type === 'internal';
  return {
    hash: t.hash,
    txHashB64: b64(Buffer.from(t.hash, 'hex')),
    tx: t.tx,
    account,
    msg,
    msgHash: b64(cell.hash()),
    body: msg.body,
    opcode: messageOpcode(msg.body),
    source: internal ? rawUpper(info.src) : null,
    destination: account,
    value: internal ? info.value.coins : null,
    extra: internal ? extraCurrencyMap(info.value.other) : {},
    lt: internal ? info.createdLt : t.tx.lt,
    utime: internal ? info.createdAt : t.tx.now,
    failed: aborted(t.tx),
    origStatus: accountStatus(t.tx.oldStatus),
    endStatus: accountStatus(t.tx.endStatus),
    parent,
    children: [],
  };
}

/** A comment as the reference stores it: UTF-8 with bad bytes escaped and NULs dropped; encrypted ones base64. */
function commentText(bytes: Buffer, encrypted: boolean): string {
  if (encrypted) return bytes.toString('base64');
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

function basicBlock(node: Node): Block {
  const op = node.opcode;
  const tonTransfer = (op === OP.textComment || op === null || op === OP.encryptedComment) && node.source !== null && node.destination !== null;
  let block: Block;
  if (tonTransfer) {
    block = new Block('ton_transfer', [node]);
    let comment: string | null = null;
    const encrypted = op === OP.encryptedComment;
    if (op !== null) {
      try {
        const s = node.body.beginParse();
        s.skip(32);
        comment = commentText(snakeBytes(s), encrypted);
      } catch {
        comment = null;
      }
    }
    block.data = {
      source: node.source,
      destination: node.destination,
      value: node.value?.toString() ?? null,
      value_extra_currencies: node.extra,
      comment,
      encrypted,
    };
    if (node.failed) {
      // the reference forgives failures that do not lose the coins (no bounce, uninit receiver, no gas)
      const bounce = node.msg.info.type === 'internal' && node.msg.info.bounce;
      const desc = node.tx.description;
      const noGas = desc.type === 'generic' && desc.computePhase.type === 'skipped' && desc.computePhase.reason === 'no-gas';
      block.failed = bounce ? true : node.endStatus === 'uninit' ? false : !(node.source !== null && noGas);
    }
  } else {
    block = new Block('call_contract', [node]);
    block.opcode = op;
    block.data = {
      ...(op !== null ? { opcode: opcodeHex(op) } : {}),
      ...(node.source ? { source: node.source } : {}),
      ...(node.destination ? { destination: node.destination } : {}),
      ...(node.value !== null ? { value: node.value.toString() } : {}),
      extra_currencies: node.extra,
    };
    block.failed = node.failed && !(!node.value && op && Object.keys(node.extra).length === 0);
  }
  if (node.endStatus === 'active' && node.origStatus !== 'active' && node.origStatus !== 'frozen') {
    const deploy = new Block('contract_deploy', [node]);
    deploy.opcode = op;
    deploy.failed = node.failed;
    deploy.data = {
      ...(op !== null ? { opcode: opcodeHex(op) } : {}),
      ...(node.source ? { source: node.source } : {}),
      ...(node.destination ? { destination: node.destination } : {}),
      ...(node.value !== null ? { value: node.value.toString() } : {}),
    };
    block.children.push(deploy);
  }
  for (const child of node.children) block.connect(basicBlock(child));
  return block;
}

/** Merges `include` (the matched block first) into `merged`, which takes its place in the tree. */
function merge(merged: Block, include: Block[]): void {
  const members = [...new Set(include)];
  const earliest = include[0]!;
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
const replies = (b: Block): Block[] => b.next.filter((n) => isCall(n, OP.excess) || isCall(n, OP.bounce));

const cellB64 = (c: Cell | null): string | null => (c ? bocB64(c) : null);

type Matcher = (b: Block, info: ContractInfo) => Promise<void>;

const nftMint: Matcher = async (b, info) => {
  const deployed = b.deployments;
  if (deployed.length !== 1 || b.type === 'root') return;
  const item = await info.nftItem(deployed[0]!);
  if (!item) return;
  const node = b.nodes[0]!;
  const m = new Block('nft_mint', []);
  merge(m, [b]);
  m.data = {
    // the reference's `owner` is the deploying message's source (the collection, for a collection mint)
    ...(node.source ? { owner: node.source } : {}),
    nft_item: deployed[0],
    nft_collection: item.collection,
    nft_item_index: item.index,
  };
};

const jettonTransfer: Matcher = async (b, info) => {
  if (!isCall(b, OP.jettonTransfer)) return;
  const internals = b.next.filter((n) => isCall(n, OP.jettonInternalTransfer));
  if (internals.length === 0) return;
  const covered: Block[] = [];
  for (const it of internals) {
    covered.push(it);
    for (const n of it.next.filter((x) => isCall(x, OP.jettonNotify))) covered.push(n, ...replies(n));
    covered.push(...replies(it));
  }
  covered.push(...replies(b));
  const internal = internals[0]!;
  const body = parseJettonTransfer(b.nodes[0]!.body);
  const receiverWallet = internal.nodes[0]!.destination!;
  const wallet = await info.jettonWallet(receiverWallet);
  if (!wallet) return;
  let amount = body.amount;
  let forwardAmount = body.forwardTonAmount;
  try {
    const it = parseJettonInternalTransfer(internal.nodes[0]!.body);
    amount = it.amount;
    forwardAmount = it.forwardTonAmount;
  } catch {
    // the reference keeps the transfer's own figures when the internal transfer does not parse
  }
  const comment = payloadComment(body.forwardPayload);
  const m = new Block('jetton_transfer', []);
  merge(m, [b, ...covered]);
  m.failed = b.failed || internal.failed;
  m.data = {
    asset: wallet.jetton,
    sender: b.nodes[0]!.source,
    // a receiver wallet owned by someone else than the transfer names wins (the reference marks it broken)
    receiver: body.destination === wallet.owner ? body.destination : wallet.owner,
    sender_jetton_wallet: b.nodes[0]!.destination,
    receiver_jetton_wallet: receiverWallet,
    amount: amount.toString(),
    comment: comment ? commentText(comment.comment, comment.encrypted) : null,
    is_encrypted_comment: comment?.encrypted ?? false,
    query_id: body.queryId.toString(),
    response_destination: body.responseDestination,
    custom_payload: cellB64(body.customPayload),
    forward_payload: cellB64(body.forwardPayload),
    forward_amount: forwardAmount.toString(),
  };
};

const jettonBurn: Matcher = async (b, info) => {
  if (!isCall(b, OP.jettonBurn)) return;
  const covered: Block[] = [];
  for (const n of b.next.filter((x) => isCall(x, OP.jettonBurnNotification))) covered.push(n, ...replies(n));
  covered.push(...replies(b));
  const walletAddr = b.nodes[0]!.destination!;
  const wallet = await info.jettonWallet(walletAddr);
  if (!wallet) return;
  const body = parseJettonBurn(b.nodes[0]!.body);
  const m = new Block('jetton_burn', []);
  merge(m, [b, ...covered]);
  m.failed = b.failed;
  m.data = { owner: wallet.owner, owner_jetton_wallet: walletAddr, asset: wallet.jetton, amount: body.amount.toString() };
};

const nftTransfer: Matcher = async (b, info) => {
  if (!isCall(b, OP.nftTransfer)) return;
  const covered: Block[] = [];
  for (const n of b.next) if (isCall(n, OP.nftOwnershipAssigned) || isCall(n, OP.excess)) covered.push(n, ...replies(n));
  covered.push(...replies(b));
  const node = b.nodes[0]!;
  const item = await info.nftItem(node.account);
  if (!item) return;
  const body = parseNftTransfer(node.body);
  const assigned = covered.find((x) => isCall(x, OP.nftOwnershipAssigned));
  let oldOwner = node.source;
  if (assigned) oldOwner = parseNftOwnershipAssigned(assigned.nodes[0]!.body).prevOwner;
  const comment = payloadComment(body.forwardPayload);
  const m = new Block('nft_transfer', []);
  merge(m, [b, ...covered]);
  m.failed = b.failed;
  m.data = {
    nft_collection: item.collection,
    nft_item: node.account,
    nft_item_index: item.index,
    ...(oldOwner ? { old_owner: oldOwner } : {}),
    new_owner: body.newOwner,
    is_purchase: false,
    query_id: body.queryId.toString(),
    response_destination: body.responseDestination,
    custom_payload: cellB64(body.customPayload),
    forward_payload: cellB64(body.forwardPayload),
    forward_amount: body.forwardAmount.toString(),
    comment: comment ? commentText(comment.comment, comment.encrypted) : null,
    is_encrypted_comment: body.forwardPayload ? (comment?.encrypted ?? false) : null,
    marketplace: null,
    real_old_owner: null,
    marketplace_address: null,
    payout_amount: null,
    payout_address: null,
    payout_comment: null,
    payout_comment_encrypted: null,
    payout_comment_encoded: null,
    royalty_amount: null,
    royalty_address: null,
  };
};

const jettonMint: Matcher = async (b, info) => {
  if (!isCall(b, OP.jettonMint) && !isCall(b, OP.minterJettonMint)) return;
  const covered: Block[] = [];
  for (const n of b.next) {
    if (isCall(n, OP.jettonNotify)) covered.push(n, ...replies(n));
    else if (isCall(n, OP.jettonInternalTransfer)) {
      covered.push(n);
      for (const x of n.next.filter((y) => isCall(y, OP.jettonNotify))) covered.push(x, ...replies(x));
      covered.push(...replies(n));
    }
  }
  covered.push(...replies(b));
  const mint = parseJettonMint(b.nodes[0]!.body);
  const internal = covered.find((x) => isCall(x, OP.jettonInternalTransfer));
  let data: Record<string, unknown>;
  let failed: boolean;
  if (!b.failed && internal) {
    const receiverWallet = internal.nodes[0]!.destination!;
    const wallet = await info.jettonWallet(receiverWallet);
    if (!wallet) return;
    const it = parseJettonInternalTransfer(internal.nodes[0]!.body);
    data = {
      asset: wallet.jetton,
      receiver: wallet.owner,
      receiver_jetton_wallet: receiverWallet,
      amount: it.amount.toString(),
      ton_amount: mint.tonAmount.toString(),
    };
    failed = b.failed || internal.failed;
  } else {
    data = {
      asset: b.nodes[0]!.destination,
      receiver: mint.toAddress,
      receiver_jetton_wallet: null,
      amount: mint.masterMsgAmount?.toString() ?? null,
      ton_amount: mint.tonAmount.toString(),
    };
    failed = true;
  }
  const m = new Block('jetton_mint', []);
  merge(m, [b, ...covered]);
  m.failed = failed;
  m.data = data;
};

/** The reference's matcher order, restricted to the types classified here. */
const MATCHERS: Matcher[] = [nftMint, jettonTransfer, jettonBurn, nftTransfer, jettonMint];

function bfs(root: Block): Block[] {
  const out: Block[] = [];
  const queue = [root];
  while (queue.length) {
    const b = queue.shift()!;
    out.push(b);
    queue.push(...b.next);
  }
  return out;
}

/** `base64(sha256(key + type))`, key = the earliest node's in-message hash (base64). */
export function actionId(rootMsgHashB64: string, type: string): string {
  return sha256_sync(Buffer.from(rootMsgHashB64 + type, 'utf8')).toString('base64');
}

const ADDRESS_KEYS = [
  'source', 'destination', 'asset', 'sender', 'receiver', 'sender_jetton_wallet', 'receiver_jetton_wallet',
  'response_destination', 'owner', 'owner_jetton_wallet', 'nft_item', 'nft_collection', 'old_owner', 'new_owner',
];

function toAction(b: Block): ClassifiedAction {
  const root = b.nodes.reduce((m, n) => (n.lt < m.lt ? n : m), b.nodes[0]!);
  const txs = new Map<string, Node>();
  for (const n of b.nodes) txs.set(n.hash, n);
  if (b.initiating) txs.set(b.initiating.hash, b.initiating);
  const ordered = [...txs.values()].sort((x, y) => (x.tx.lt < y.tx.lt ? -1 : x.tx.lt > y.tx.lt ? 1 : 0));
  const accounts: string[] = [];
  for (const n of [...b.nodes, ...(b.initiating ? [b.initiating] : [])]) if (!accounts.includes(n.account)) accounts.push(n.account);
  // a transfer carrying extra currencies is reported under the API-side name (v3.md §4.3)
  const extra = (b.data.value_extra_currencies ?? b.data.extra_currencies) as ExtraCurrencies | undefined;
  const type = (b.type === 'ton_transfer' || b.type === 'call_contract') && extra && Object.keys(extra).length > 0 ? 'extra_currency_transfer' : b.type;
  const addresses = ADDRESS_KEYS.map((k) => b.data[k]).filter((v): v is string => typeof v === 'string');
  return {
    type,
    actionId: actionId(root.msgHash, b.type),
    txHashes: ordered.map((n) => n.hash),
    startLt: b.minLt,
    endLt: b.maxLt,
    startUtime: b.minUtime,
    endUtime: b.maxUtime,
    success: !b.failed,
    details: b.data,
    accounts,
    ancestorTypes: [],
    addresses,
  };
}

/**
 * The actions of one trace, ordered by (start_lt, end_lt). `txs` are the trace's transactions in any order; the
 * one without a parent among them is the root.
 */
export async function classifyTrace(txs: readonly ClassifierTx[], info: ContractInfo): Promise<ClassifiedAction[]> {
  const nodes = new Map<string, Node>();
  const sorted = [...txs].sort((a, b) => (a.tx.lt < b.tx.lt ? -1 : a.tx.lt > b.tx.lt ? 1 : 0));
  let rootNode: Node | null = null;
  for (const t of sorted) {
    const parent = t.parentHash ? (nodes.get(t.parentHash) ?? null) : null;
    const node = toNode(t, parent);
    if (!node) continue;
    nodes.set(t.hash, node);
    if (parent) parent.children.push(node);
    else rootNode ??= node;
  }
  if (!rootNode) return [];
  const root = new Block('root', []);
  root.connect(basicBlock(rootNode));
  for (const match of MATCHERS) {
    for (const b of bfs(root)) if (b !== root && !b.parent) await match(b, info);
  }
  const blocks = bfs(root);
  // unwind_deployments: contract_deploy blocks anywhere under the remaining blocks
  const seen = new Set<Block>();
  for (let i = 0; i < blocks.length; i++) {
    const queue = [...blocks[i]!.children];
    while (queue.length) {
      const c = queue.shift()!;
      if (c.type === 'contract_deploy' && !seen.has(c)) blocks.push(c);
      else queue.push(...c.children);
      seen.add(c);
    }
  }
  const actions: ClassifiedAction[] = [];
  for (const b of blocks) {
    if (b.type === 'root') continue;
    if (b.type === 'call_contract' && (b.nodes[0]!.destination === null || b.nodes[0]!.source === null)) continue;
    actions.push(toAction(b));
  }
  return actions.sort((x, y) => (x.startLt !== y.startLt ? (x.startLt < y.startLt ? -1 : 1) : x.endLt < y.endLt ? -1 : x.endLt > y.endLt ? 1 : 0));
}
