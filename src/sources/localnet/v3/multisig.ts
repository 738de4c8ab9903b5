/**
 * /api/v3 multisig wallets and orders over the local chain (v3.md §2.5): contracts of those kinds are indexed
 * when the chain holds any (found by their get-methods in the contract index, indexer/contracts.ts); otherwise
 * the answers are empty and valid.
 */
import { Dictionary, loadMessageRelaxed, type Cell } from '@ton/core';
import { ApiError } from '../../../api/errors.js';
import type { Sort } from '../../../api/v3/common.js';
import type {
  Multisig,
  MultisigApi,
  MultisigOrder,
  MultisigOrderAction,
  MultisigOrderResponse,
  MultisigOrdersParams,
  MultisigResponse,
  MultisigWalletsParams,
} from '../../../api/v3/multisig.js';
import { rawUpper } from '../../../model/address.js';
import { bocB64 } from '../../../model/message.js';
import { decodeBody, loadJettonBurnBody, loadJettonTransferBody, loadNftTransferBody } from '../../../model/v3/index.js';
import { bodyOp } from '../../../model/tlb/common.js';
import { JETTON_OP } from '../../../model/tlb/jetton.js';
import { MULTISIG_OP } from '../../../model/tlb/multisig.js';
import { NFT_OP } from '../../../model/tlb/nft.js';
import type { MultisigOrderState, MultisigState } from '../indexer/contract-state.js';
import type { LocalV3Context } from './v3-context.js';
import { orderBy, pageOf, rawSet } from './v3-order.js';
import { addrRaw as addr } from './v3-tokens-json.js';

export function localMultisig(ctx: LocalV3Context): MultisigApi {
  return {
    async multisigWallets(p: MultisigWalletsParams): Promise<MultisigResponse> {
      if (!p.address?.length && !p.walletAddress?.length) {
        throw new ApiError(422, 'At least one of address or wallet_address should be specified');
      }
      await ctx.indexer.contracts.sync();
      const address = rawSet(p.address);
      const wallet = rawSet(p.walletAddress);
      const s = p.sort;
      const list = ctx.indexer.contracts
        .list('multisig')
        .filter((m) => (!address || address.has(m.raw)) && (!wallet || [...m.signers, ...m.proposers].some((a) => wallet.has(a))))
        .sort(orderBy<MultisigState>([(m) => m.id, s]));
      const orders = ctx.indexer.contracts.list('multisig_order');
      const multisigs = pageOf(list, p).map((m) =>
        multisigToV3(m, p.includeOrders === false ? [] : orders.filter((o) => o.multisig === m.raw).map((o) => orderToV3(o, false))),
      );
      const addrs = multisigs.flatMap((m) => [m.address, ...m.signers, ...m.proposers, ...m.orders.map((o) => o.address)]);
      return { multisigs, address_book: ctx.book(addrs, p) };
    },

    async multisigOrders(p: MultisigOrdersParams): Promise<MultisigOrderResponse> {
      if (!p.address?.length && !p.multisigAddress?.length) {
        throw new ApiError(422, 'At least one of address or multisig_address should be specified');
      }
      await ctx.indexer.contracts.sync();
      const address = rawSet(p.address);
      const multisig = rawSet(p.multisigAddress);
      const s = p.sort;
      const list = ctx.indexer.contracts
        .list('multisig_order')
        .filter((o) => (!address || address.has(o.raw)) && (!multisig || multisig.has(o.multisig)))
        .sort(orderBy<MultisigOrderState>([(o) => o.id, s]));
      const orders = pageOf(list, p).map((o) => orderToV3(o, p.parseActions ?? false));
      const addrs = orders.flatMap((o) => [o.address, o.multisig_address, ...o.signers]);
      return { orders, address_book: ctx.book(addrs, p) };
    },
  };
}

/** What an action's message body is, by op-code (the reference's `parsed_body_type` names). */
function parsedBody(body: Cell): { type: string; parsed: Record<string, unknown> | null } {
  const op = bodyOp(body);
  if (op === null || op === 0) return { type: 'ton_transfer', parsed: decodeBody(body) };
  if (op === JETTON_OP.transfer) {
    const b = loadJettonTransferBody(body);
    if (b) {
      return {
        type: 'jetton_transfer',
        parsed: {
          query_id: b.queryId.toString(),
          amount: b.amount.toString(),
          destination: addr(b.destination),
          response_destination: addr(b.responseDestination),
          forward_ton_amount: b.forwardTonAmount.toString(),
        },
      };
    }
  }
  if (op === JETTON_OP.burn) {
    const b = loadJettonBurnBody(body);
    if (b) {
      return {
        type: 'jetton_burn',
        parsed: { query_id: b.queryId.toString(), amount: b.amount.toString(), response_destination: addr(b.responseDestination) },
      };
    }
  }
  if (op === NFT_OP.transfer) {
    const b = loadNftTransferBody(body);
    if (b) {
      return {
        type: 'nft_transfer',
        parsed: {
          query_id: b.queryId.toString(),
          new_owner: addr(b.newOwner),
          response_destination: addr(b.responseDestination),
          forward_amount: b.forwardAmount.toString(),
        },
      };
    }
  }
  return { type: 'unknown', parsed: null };
}

/** The actions of an order cell (`Hashmap 8 ^MultisigSendMessageAction`), in key order. */
function orderActions(order: Cell | null): MultisigOrderAction[] {
  if (!order) return [];
  try {
    const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Cell(), order);
    return [...dict.keys()].sort((a, b) => a - b).map((k) => actionOf(dict.get(k)!));
  } catch {
    return [];
  }
}

const noAction = (type: string, error: string | null): MultisigOrderAction => ({
  destination: null,
  value: null,
  body_raw: null,
  parsed: error === null,
  error,
  parsed_body: null,
  parsed_body_type: type,
  send_mode: 0,
});

function actionOf(cell: Cell): MultisigOrderAction {
  const s = cell.beginParse();
  const op = s.loadUint(32);
  if (op === MULTISIG_OP.updateMultisigParam) {
    return noAction('multisig_update_params', null);
  }
  try {
    const mode = s.loadUint(8);
    const msg = loadMessageRelaxed(s.loadRef().beginParse());
    const info = msg.info;
    const body = parsedBody(msg.body);
    return {
      destination: info.type === 'internal' ? rawUpper(info.dest) : null,
      value: info.type === 'internal' ? info.value.coins.toString() : null,
      body_raw: bocB64(msg.body),
      parsed: body.type !== 'unknown',
      error: null,
      parsed_body: body.parsed,
      parsed_body_type: body.type,
      send_mode: mode,
    };
  } catch (e) {
    return noAction('unknown', (e as Error).message);
  }
}

function orderToV3(o: MultisigOrderState, parseActions: boolean): MultisigOrder {
  return {
    address: o.raw,
    multisig_address: o.multisig,
    order_seqno: o.orderSeqno.toString(),
    threshold: o.threshold,
    sent_for_execution: o.sentForExecution,
    approvals_mask: o.approvalsMask === null ? null : o.approvalsMask.toString(),
    approvals_num: o.approvalsNum,
    expiration_date: o.expirationDate,
    order_boc: o.order ? bocB64(o.order) : null,
    signers: o.signers,
    last_transaction_lt: o.lastLt.toString(),
    code_hash: o.codeHash,
    data_hash: o.dataHash,
    actions: parseActions ? orderActions(o.order) : [],
  };
}

function multisigToV3(m: MultisigState, orders: MultisigOrder[]): Multisig {
  return {
    address: m.raw,
    next_order_seqno: m.nextOrderSeqno.toString(),
    threshold: m.threshold,
    signers: m.signers,
    proposers: m.proposers,
    last_transaction_lt: m.lastLt.toString(),
    code_hash: m.codeHash,
    data_hash: m.dataHash,
    orders,
  };
}
