/**
 * Multisig v2 orders: an order created (`new_order` to the multisig, which deploys the order contract with `init`),
 * a signer's approval (`approve`, or the comment "approve", answered accepted or rejected) and an order executed
 * (`execute`, from the order to the multisig). The reference's rules: `indexer/events/blocks/multisig.py` of
 * toncenter/ton-indexer; it acts only where the order contract is one, which here is read from the order's data
 * (it starts with its multisig's address and its seqno).
 */
import type { Cell, Slice } from '@ton/core';
import { addrOrNull } from '../common.js';
import { defineMatcher, found, isCall, type Block, type ContractInfo } from './block.js';

export const MULTISIG_OP = {
  newOrder: 0xf718510f,
  initOrder: 0x9c73fba2,
  approve: 0xa762230f,
  approveAccepted: 0x82609bf6,
  approveRejected: 0xafaf283e,
  execute: 0x75097f5d,
} as const;

const APPROVE_COMMENT = 'approve';

/** A BoC as the reference stores it (no index, no CRC). */
const boc = (c: Cell): string => c.toBoc({ idx: false, crc32: false }).toString('base64');

/** The body after its op and query id, with the query id. */
function body(b: Block): { queryId: bigint; s: Slice } {
  const s = b.nodes[0]!.body.beginParse();
  s.skip(32);
  return { queryId: s.loadUintBig(64), s };
}

/** The multisig an order contract belongs to, from its data; null when `order` is no order contract known here. */
async function orderOf(order: string | null, info: ContractInfo): Promise<{ multisig: string | null; seqno: bigint } | null> {
  const data = order ? await info.contractData?.(order) : null;
  if (!data) return null;
  const s = data.beginParse();
  return { multisig: addrOrNull(s.loadAddress()), seqno: s.loadUintBig(256) };
}

export const multisigCreateOrder = defineMatcher({
  name: 'multisig_create_order',
  addressKeys: { multisig_create_order: ['source', 'destination', 'destination_order'] },
  async match(b, info) {
    if (!isCall(b, MULTISIG_OP.newOrder)) return null;
    const init = b.next.find((n) => isCall(n, MULTISIG_OP.initOrder));
    if (!init) return null;
    const node = b.nodes[0]!;
    const orderAddress = init.nodes[0]!.destination;
    const order = await orderOf(orderAddress, info);
    if (!order || order.multisig !== node.destination) return null;
    const req = body(b);
    const seqno = req.s.loadUintBig(256);
    const bySigner = req.s.loadBit();
    const creatorIndex = req.s.loadUint(8);
    const expiration = req.s.loadUint(48);
    const deploy = body(init).s;
    deploy.skip(8);
    deploy.loadRef(); // signers
    deploy.skip(48);
    const orderCell = deploy.loadRef();
    return found({
      type: 'multisig_create_order',
      include: [b, init],
      failed: b.failed,
      details: {
        query_id: req.queryId.toString(),
        order_seqno: seqno.toString(),
        is_created_by_signer: bySigner,
        is_signed_by_creator: deploy.loadBit(),
        creator_index: creatorIndex,
        expiration_date: expiration,
        order_boc: boc(orderCell),
        source: node.source,
        destination: node.destination,
        destination_order: orderAddress,
      },
    });
  },
});

export const multisigApprove = defineMatcher({
  name: 'multisig_approve',
  addressKeys: { multisig_approve: ['source', 'destination'] },
  async match(b, info) {
    const byComment = b.type === 'ton_transfer' && b.data.comment === APPROVE_COMMENT;
    if (!isCall(b, MULTISIG_OP.approve) && !byComment) return null;
    const answer = b.next.find((n) => isCall(n, MULTISIG_OP.approveAccepted)) ?? b.next.find((n) => isCall(n, MULTISIG_OP.approveRejected));
    if (!answer) return null;
    const node = b.nodes[0]!;
    if (!(await orderOf(node.destination, info))) return null;
    const rejected = isCall(answer, MULTISIG_OP.approveRejected);
    return found({
      type: 'multisig_approve',
      include: [b, answer],
      failed: b.failed,
      details: {
        // an approval by comment does not say which signer it is
        signer_index: byComment ? -1 : body(b).s.loadUint(8),
        exit_code: rejected ? body(answer).s.loadUint(32) : 0,
        source: node.source,
        destination: node.destination,
      },
    });
  },
});

export const multisigExecute = defineMatcher({
  name: 'multisig_execute',
  addressKeys: { multisig_execute: ['source', 'destination'] },
  async match(b, info) {
    if (!isCall(b, MULTISIG_OP.execute)) return null;
    const node = b.nodes[0]!;
    const order = await orderOf(node.source, info);
    if (!order || order.multisig !== node.destination) return null;
    const req = body(b);
    return found({
      type: 'multisig_execute',
      include: [b],
      failed: b.failed,
      details: {
        query_id: req.queryId.toString(),
        order_seqno: req.s.loadUintBig(256).toString(),
        expiration_date: req.s.loadUint(48),
        approvals_num: req.s.loadUint(8),
        signers_hash: req.s.loadBuffer(32).toString('base64'),
        order_boc: boc(req.s.loadRef()),
        source: node.source,
        destination: node.destination,
      },
    });
  },
});

export const MULTISIG_MATCHERS = [multisigCreateOrder, multisigApprove, multisigExecute];
