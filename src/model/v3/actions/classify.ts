/**
 * Actions of a trace (v3.md §4): the reference's block-tree classification, over decoded transactions.
 *
 * How the reference does it (`indexer/indexer/events/` of toncenter/ton-indexer at eb9fbfa3):
 * - every transaction of the trace is a node holding its inbound message; each node starts as a `ton_transfer`
 *   block (opcode 0, none or encrypted comment, with a source and destination) or a `call_contract` block, linked
 *   parent → children; a node whose account goes from uninit/nonexist to active also holds a `contract_deploy`;
 * - matchers run in a fixed order (./registry.ts) over
 *   every block not yet merged, and a match merges the blocks it covers (with excess and bounce replies next to
 *   them) into one block, so covered transfers are not reported on their own;
 * - each remaining block is an action, except `call_contract` from an external (no source) or to nowhere;
 *   `contract_deploy` blocks found anywhere under them are actions too;
 * - an action's transactions are its nodes' plus the transaction that sent its first message; its lt/utime
 *   window starts at that message's created_lt/created_at and ends at its last transaction;
 * - `action_id` = base64(sha256(utf8(<in-message hash, base64, of its earliest node> + <type>)))
 *   (`block_tree_serializer.py` `_calc_action_id`).
 * - a block of a later type (not one of the v1 block types) keeps the blocks merged into it as actions of their own,
 *   with its block type in their `ancestor_type` (`serialize_blocks`): an `nft_purchase` holds its `nft_transfer`
 *   and the seller's payout; the hiding rule (../action-types.ts) shows one or the other.
 *
 * The matchers are one file per protocol beside this one, listed once in order in ./registry.ts. Pure: which
 * contract is a jetton wallet or an NFT item comes from the caller's `ContractInfo` (get-methods).
 */
import { sha256_sync } from '@ton/crypto';
import type { ActionType, CallContractDetails, ContractDeployDetails, TonTransferDetails } from '../../../api/v3/action-details.js';
import type { ExtraCurrencies } from '../../../api/v3/common.js';
import { bodyOp } from '../../tlb/common.js';
import { COMMENT_OP, loadComment } from '../../tlb/comment.js';
import { loadWalletExternalPayloads } from '../../tlb/wallet-external.js';
import type { ClassifierMessage, ClassifierTransaction } from '../classifier-input.js';
import { opcodeHex, rawUpper } from '../common.js';
import { Block, commentText, merge, reachable, type ContractInfo, type Match, type Matcher, type Node } from './block.js';
import { ADDRESS_KEYS, MATCHERS, POST_PROCESSORS } from './registry.js';

export type { ContractInfo, NftSaleInfo } from './block.js';

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

function toNode(t: ClassifierTransaction, parent: Node | null): Node | null {
  const msg = t.inMsg;
  if (!msg || msg.destination === null) return null;
  return {
    hash: t.hash,
    tx: t,
    account: msg.destination,
    msg,
    msgHash: msg.hash,
    body: msg.body,
    opcode: msg.opcode,
    source: msg.source,
    destination: msg.destination,
    value: msg.value,
    extra: msg.extraCurrencies,
    lt: msg.createdLt ?? t.lt,
    utime: msg.createdAt ?? t.now,
    failed: t.aborted,
    origStatus: t.origStatus,
    endStatus: t.endStatus,
    parent,
    children: [],
  };
}

/** A message to nowhere: a leaf of its sender's node, with no transaction of its own. */
function extOutNode(t: ClassifierTransaction, msg: ClassifierMessage, sender: Node): Node {
  return {
    hash: t.hash,
    tx: t,
    account: t.account,
    msg,
    msgHash: msg.hash,
    body: msg.body,
    opcode: msg.opcode,
    source: msg.source,
    destination: null,
    value: null,
    extra: {},
    lt: msg.createdLt ?? t.lt,
    utime: msg.createdAt ?? t.now,
    failed: t.aborted,
    origStatus: t.origStatus,
    endStatus: t.endStatus,
    parent: sender,
    children: [],
  };
}

function basicBlock(node: Node): Block {
  const op = node.opcode;
  const tonTransfer = (op === COMMENT_OP.text || op === null || op === COMMENT_OP.encrypted) && node.source !== null && node.destination !== null;
  let block: Block;
  if (tonTransfer) {
    block = new Block('ton_transfer', [node]);
    let comment: string | null = null;
    if (op !== null) {
      try {
        comment = commentText(loadComment(node.body.beginParse()));
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
      encrypted: op === COMMENT_OP.encrypted,
    } satisfies TonTransferDetails;
    if (node.failed) {
      // the reference forgives failures that do not lose the coins (no bounce, uninit receiver, no gas)
      block.failed = node.msg.bounce ? true : node.endStatus === 'uninit' ? false : !(node.source !== null && node.tx.noGas);
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
    } satisfies CallContractDetails;
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
    } satisfies ContractDeployDetails;
    block.children.push(deploy);
  }
  for (const child of node.children) block.connect(basicBlock(child));
  return block;
}

/** `base64(sha256(key + type))`, key = the earliest node's in-message hash (base64). */
export function actionId(rootMsgHashB64: string, type: string): string {
  return sha256_sync(Buffer.from(rootMsgHashB64 + type, 'utf8')).toString('base64');
}

function toAction(b: Block): ClassifiedAction {
  const root = b.nodes.reduce((m, n) => (n.lt < m.lt ? n : m), b.nodes[0]!);
  const txs = new Map<string, Node>();
  for (const n of b.nodes) txs.set(n.hash, n);
  if (b.initiating) txs.set(b.initiating.hash, b.initiating);
  const ordered = [...txs.values()].sort((x, y) => (x.tx.lt < y.tx.lt ? -1 : x.tx.lt > y.tx.lt ? 1 : 0));
  const accounts: string[] = [];
  for (const n of [...b.nodes, ...(b.initiating ? [b.initiating] : [])]) if (!accounts.includes(n.account)) accounts.push(n.account);
  for (const a of b.extraAccounts) if (!accounts.includes(a)) accounts.push(a);
  // a transfer carrying extra currencies is reported under the API-side name (v3.md §4.3)
  const extra = (b.data.value_extra_currencies ?? b.data.extra_currencies) as ExtraCurrencies | undefined;
  const type =
    (b.type === 'ton_transfer' || b.type === 'call_contract') && extra && Object.keys(extra).length > 0
      ? 'extra_currency_transfer'
      : (b.action ?? b.type);
  const addresses = (ADDRESS_KEYS.get(b.action ?? b.type) ?? []).map((k) => b.data[k]).filter((v): v is string => typeof v === 'string');
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

/** A base64 character's weight under en_US.UTF-8: digits, then letters regardless of case; -1 for '+', '/', '='. */
function primaryWeight(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 122) return c - 87;
  if (c >= 65 && c <= 90) return c - 55;
  return -1;
}

/**
 * The order the reference's database returns a transaction's messages in, which is the order its matchers visit
 * children (a two-payout withdrawal's slots follow it): the primary key's `msg_hash` (base64 text) under the
 * database's en_US.UTF-8 collation (glibc): '+', '/' and '=' ignored, digits before letters, letters
 * alphabetically regardless of case, then lowercase before uppercase; code units decide what is left, which two
 * message hashes never reach.
 */
export function storeOrder(x: string, y: string): number {
  let i = 0;
  let j = 0;
  let caseOrder = 0;
  for (;;) {
    while (i < x.length && primaryWeight(x.charCodeAt(i)) < 0) i++;
    while (j < y.length && primaryWeight(y.charCodeAt(j)) < 0) j++;
    if (i === x.length || j === y.length) break;
    const a = x.charCodeAt(i++);
    const b = y.charCodeAt(j++);
    const d = primaryWeight(a) - primaryWeight(b);
    if (d !== 0) return d;
    // lowercase (97..122) sorts before uppercase (65..90) at the third level
    if (caseOrder === 0 && a !== b) caseOrder = a > b ? -1 : 1;
  }
  if (i < x.length || j < y.length) return i < x.length ? 1 : -1;
  if (caseOrder !== 0) return caseOrder;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * How a transaction's children are visited: `store` as the reference's indexer reads a confirmed trace from its
 * database (`storeOrder`), `sent` as it reads an emulated or pending one from its emulator's copy (the
 * out-messages in the order the transaction sent them, `event_deserializer.py`).
 */
export type MessageOrder = 'store' | 'sent';

const CHILD_ORDER: Readonly<Record<MessageOrder, (x: Node, y: Node) => number>> = {
  store: (x, y) => storeOrder(x.msgHash, y.msgHash),
  sent: (x, y) => (x.lt < y.lt ? -1 : x.lt > y.lt ? 1 : 0),
};

/** The trace's transactions as the reference's tree of nodes (children in `order`) and its root, with them by lt. */
function treeOf(txs: readonly ClassifierTransaction[], order: MessageOrder): { root: Node | null; sorted: ClassifierTransaction[] } {
  const nodes = new Map<string, Node>();
  const sorted = [...txs].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  let root: Node | null = null;
  for (const t of sorted) {
    const parent = t.parentHash ? (nodes.get(t.parentHash) ?? null) : null;
    const node = toNode(t, parent);
    if (!node) continue;
    nodes.set(t.hash, node);
    if (parent) parent.children.push(node);
    else root ??= node;
  }
  for (const t of sorted) {
    const sender = nodes.get(t.hash);
    if (sender) for (const m of t.extOutMsgs) sender.children.push(extOutNode(t, m, sender));
  }
  for (const n of nodes.values()) n.children.sort(CHILD_ORDER[order]);
  return { root, sorted };
}

/**
 * The blocks of one confirmed trace after every matcher and post-processing step, before they become actions (the
 * reference's `process_event_async_with_postprocessing`): each with its block type, data and failure.
 */
export async function traceBlocks(txs: readonly ClassifierTransaction[], info: ContractInfo): Promise<Block[]> {
  const { root } = treeOf(txs, 'store');
  return root ? blocksOf(root, MATCHERS, info) : [];
}

/**
 * The actions of one trace, ordered by (start_lt, end_lt). `txs` are the trace's transactions in any order; the
 * one without a parent among them is the root.
 */
export async function classifyTrace(txs: readonly ClassifierTransaction[], info: ContractInfo, order: MessageOrder = 'store'): Promise<ClassifiedAction[]> {
  const { root: rootNode, sorted } = treeOf(txs, order);
  if (!rootNode) return [];
  let blocks = await blocksOf(rootNode, MATCHERS, info);
  if (blocks.length === 0 && txs.length > 0 && rootNode.children.length === 0 && rootNode.source === null) {
    blocks = await blocksOf(externalWithGhosts(rootNode), MATCHERS, info);
  }
  const actions = nested(blocks, [], null);
  if (actions.length === 0) return [unknownAction(sorted)];
  return actions.sort((x, y) => (x.startLt !== y.startLt ? (x.startLt < y.startLt ? -1 : 1) : x.endLt < y.endLt ? -1 : x.endLt > y.endLt ? 1 : 0));
}

/**
 * A trace nothing classifies, not even its wallet's requested messages, is one `unknown` action over all of it
 * (`create_unknown_action`): its id is the trace id (the first transaction's hash), and v3 prints no details for
 * the type.
 */
function unknownAction(txs: readonly ClassifierTransaction[]): ClassifiedAction {
  const first = txs[0]!;
  const last = txs[txs.length - 1]!;
  const accounts = [...new Set(txs.map((t) => t.account))];
  return {
    type: 'unknown',
    actionId: Buffer.from(first.hash, 'hex').toString('base64'),
    txHashes: txs.map((t) => t.hash),
    startLt: first.lt,
    endLt: last.lt,
    startUtime: Math.min(...txs.map((t) => t.now)),
    endUtime: Math.max(...txs.map((t) => t.now)),
    success: !txs.some((t) => t.aborted),
    details: { error: "unsupported action type: 'unknown'" },
    accounts,
    ancestorTypes: [],
    addresses: accounts,
  };
}

/** The reference's v1 block types (`v1_ops`): the blocks merged into one of these are not actions of their own. */
const FLAT_BLOCK_TYPES: ReadonlySet<string> = new Set([
  'call_contract', 'contract_deploy', 'jetton_burn', 'tick_tock', 'jetton_transfer', 'nft_transfer', 'nft_mint', 'jetton_mint',
  'ton_transfer', 'stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request', 'dex_deposit_liquidity', 'jetton_swap',
  'change_dns', 'delete_dns', 'renew_dns', 'subscribe', 'dex_withdraw_liquidity', 'unsubscribe', 'election_deposit',
  'election_recover', 'auction_bid', 'nominator_pool_deposit', 'nominator_pool_withdraw_request', 'dedust_deposit_liquidity',
  'dedust_deposit_liquidity_partial', 'tonstakers_deposit', 'tonstakers_withdraw_request', 'tonstakers_withdraw',
  'tonco_deposit_liquidity', 'tonco_withdraw_liquidity', 'coffee_deposit_liquidity',
]);

/** A call to or from nowhere: never an action. */
const hiddenCall = (b: Block): boolean => b.type === 'call_contract' && (b.nodes[0]!.destination === null || b.nodes[0]!.source === null);

/**
 * The actions of `blocks` and, under each block of a later type, of the blocks merged into it (contract
 * deployments and an inner block with the enclosing action's id left out), each with its enclosing block types.
 */
function nested(blocks: readonly Block[], ancestors: readonly string[], parentId: string | null): ClassifiedAction[] {
  const out: ClassifiedAction[] = [];
  for (const b of blocks) {
    if (hiddenCall(b) || (parentId !== null && b.type === 'contract_deploy')) continue;
    const action = { ...toAction(b), ancestorTypes: [...ancestors] };
    if (action.actionId === parentId) continue;
    out.push(action);
    if (!FLAT_BLOCK_TYPES.has(b.type)) out.push(...nested(b.children, ancestors.includes(b.type) ? ancestors : [b.type, ...ancestors], action.actionId));
  }
  return out;
}

/**
 * A trace that stops at its external message (the wallet sent nothing): the reference reads the messages the
 * wallet was asked to send and classifies each as a failed child ("ghost") of the external's transaction. The
 * ghost's message hash is base64(utf8(<payload cell hash, base64> + <its index>)).
 */
function externalWithGhosts(node: Node): Node {
  node.failed = true;
  loadWalletExternalPayloads(node.body).forEach((p, idx) => {
    const info = p.message?.info;
    if (!info || info.type !== 'internal') return;
    const body = p.message!.body;
    const msg: ClassifierMessage = {
      hash: Buffer.from(p.cell.hash().toString('base64') + String(idx), 'utf8').toString('base64'),
      source: node.account,
      destination: rawUpper(info.dest),
      value: info.value.coins,
      extraCurrencies: {},
      opcode: bodyOp(body),
      bounce: info.bounce,
      bounced: info.bounced,
      body,
      createdLt: node.tx.lt,
      createdAt: node.tx.now,
    };
    node.children.push({
      ...node,
      msg,
      msgHash: msg.hash,
      body,
      opcode: msg.opcode,
      source: msg.source,
      destination: msg.destination,
      value: msg.value,
      extra: {},
      lt: node.tx.lt,
      utime: node.tx.now,
      failed: true,
      parent: node,
      children: [],
    });
  });
  return node;
}

/**
 * One matcher on one block. A matcher that throws (a body that does not parse as its schema says, a get-method
 * answer it did not expect) has not matched: the reference catches the error and goes on, so one odd message
 * does not cost the trace its other actions.
 */
async function tryMatch(matcher: Matcher, b: Block, info: ContractInfo): Promise<Match<ActionType> | null> {
  try {
    return await matcher.match(b, info);
  } catch {
    return null;
  }
}

/** The blocks that become actions: the tree matched, contract deployments unwound, hidden calls dropped. */
async function blocksOf(rootNode: Node, matchers: readonly Matcher[], info: ContractInfo): Promise<Block[]> {
  const root = new Block('root', []);
  root.connect(basicBlock(rootNode));
  for (const matcher of matchers) {
    for (const b of reachable(root)) {
      if (b === root || b.parent) continue;
      const found = await tryMatch(matcher, b, info);
      if (!found) continue;
      const m = new Block(found.blockType ?? found.type, []);
      merge(m, found.include);
      m.action = found.type;
      m.failed = found.failed;
      m.hasInternalTransfer = found.hasInternalTransfer === true;
      m.extraAccounts = found.extraAccounts ?? [];
      m.data = found.details;
      if (found.detached) m.initiating = null;
    }
  }
  let blocks = reachable(root);
  for (const step of POST_PROCESSORS) blocks = step(blocks);
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
  return blocks.filter((b) => b.type !== 'root' && !hiddenCall(b));
}
