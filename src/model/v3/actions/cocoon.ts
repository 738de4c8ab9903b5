/**
 * Cocoon: payouts to workers and proxies, charges and refunds of clients, clients' own requests, proxies
 * registered at the root. Each flow is anchored at the message that starts it, with the requests and payouts it
 * causes (the reference's `indexer/events/blocks/cocoon.py` rules).
 */
import {
  COCOON_OP,
  loadCoinsAfterQuery,
  loadNewSecretHash,
  loadOwnerRequest,
  loadQueryId,
  loadRegisterNonce,
  loadTokensPayload,
  loadUnregisterSeqno,
  loadWorkerProxyRequest,
} from '../../tlb/cocoon.js';
import { defineMatcher, found, isCall, type Block } from './block.js';

const child = (b: Block, op: number): Block | undefined => b.next.find((n) => isCall(n, op));
const KEYS = ['source', 'destination'] as const;

/** An owner's request to a client contract, answered by excesses back and a request on to the proxy. */
function ownerToClient(b: Block, op: number) {
  if (!isCall(b, op)) return null;
  const excesses = child(b, COCOON_OP.returnExcessesBack);
  const request = child(b, COCOON_OP.clientProxyRequest);
  if (!excesses || !request) return null;
  const node = b.nodes[0]!;
  const { queryId, sendExcessesTo } = loadOwnerRequest(node.body, op);
  return { node, request, include: [b, excesses, request], queryId: queryId.toString(), owner: sendExcessesTo ?? node.source, failed: node.failed };
}

export const cocoonWorkerPayout = defineMatcher({
  name: 'cocoon_worker_payout',
  addressKeys: { cocoon_worker_payout: KEYS },
  async match(b) {
    const last = isCall(b, COCOON_OP.lastPayoutPayload);
    if (!last && !isCall(b, COCOON_OP.payoutPayload)) return null;
    const request = child(b, COCOON_OP.workerProxyRequest);
    const payout = request && child(request, COCOON_OP.payout);
    if (!request || !payout) return null;
    const node = b.nodes[0]!;
    const p = loadTokensPayload(node.body, last ? COCOON_OP.lastPayoutPayload : COCOON_OP.payoutPayload);
    const worker = loadWorkerProxyRequest(request.nodes[0]!.body);
    const excesses = child(request, COCOON_OP.returnExcessesBack);
    return found({
      type: 'cocoon_worker_payout',
      include: [b, request, payout, ...(excesses ? [excesses] : [])],
      failed: payout.nodes[0]!.failed,
      details: {
        payout_type: last ? 'last' : 'regular',
        query_id: p.queryId.toString(),
        new_tokens: p.tokens.toString(),
        worker_state: worker.state,
        worker_tokens: worker.tokens.toString(),
        source: node.source,
        destination: worker.owner,
        amount: payout.nodes[0]!.value?.toString() ?? null,
      },
    });
  },
});

export const cocoonProxyPayout = defineMatcher({
  name: 'cocoon_proxy_payout',
  addressKeys: { cocoon_proxy_payout: KEYS },
  async match(b) {
    if (!isCall(b, COCOON_OP.extProxyPayoutRequest)) return null;
    const payout = child(b, COCOON_OP.payout);
    const excesses = child(b, COCOON_OP.returnExcessesBack);
    if (!payout || !excesses) return null;
    const node = b.nodes[0]!;
    return found({
      type: 'cocoon_proxy_payout',
      include: [b, payout, excesses],
      failed: payout.nodes[0]!.failed,
      details: { query_id: loadQueryId(node.body, COCOON_OP.extProxyPayoutRequest).toString(), source: node.destination, destination: payout.nodes[0]!.destination },
    });
  },
});

/** A proxy charging a client (no coins move), or granting it a refund (the client pays the refund out). */
export const cocoonCharge = defineMatcher({
  name: 'cocoon_charge',
  addressKeys: { cocoon_proxy_charge: KEYS, cocoon_grant_refund: KEYS },
  async match(b) {
    const grant = isCall(b, COCOON_OP.grantRefundPayload);
    if (!grant && !isCall(b, COCOON_OP.chargePayload)) return null;
    const request = child(b, COCOON_OP.clientProxyRequest);
    const excesses = child(b, COCOON_OP.returnExcessesBack);
    if (!request || (!grant && !excesses)) return null;
    const node = b.nodes[0]!;
    const p = loadTokensPayload(node.body, grant ? COCOON_OP.grantRefundPayload : COCOON_OP.chargePayload);
    const common = { query_id: p.queryId.toString(), new_tokens_used: p.tokens.toString(), expected_address: p.expectedAddress, source: node.destination };
    if (!grant) {
      return found({ type: 'cocoon_proxy_charge', include: [b, request, excesses!], failed: node.failed, details: { ...common, destination: request.nodes[0]!.destination } });
    }
    const payout = child(request, COCOON_OP.payout);
    const back = child(request, COCOON_OP.returnExcessesBack);
    return found({
      type: 'cocoon_grant_refund',
      include: [b, request, ...(payout ? [payout] : []), ...(back ? [back] : [])],
      failed: node.failed,
      details: { ...common, destination: payout?.nodes[0]!.destination ?? null, amount: payout?.nodes[0]!.value?.toString() ?? null },
    });
  },
});

export const cocoonClientTopUp = defineMatcher({
  name: 'cocoon_client_top_up',
  addressKeys: { cocoon_client_top_up: KEYS },
  async match(b) {
    if (!isCall(b, COCOON_OP.extClientTopUp)) return null;
    const request = child(b, COCOON_OP.clientProxyRequest);
    const excesses = request && child(request, COCOON_OP.returnExcessesBack);
    if (!request || !excesses) return null;
    const node = b.nodes[0]!;
    const { queryId, sendExcessesTo } = loadOwnerRequest(node.body, COCOON_OP.extClientTopUp);
    return found({
      type: 'cocoon_client_top_up',
      include: [b, request, excesses],
      failed: node.failed,
      details: {
        query_id: queryId.toString(),
        source: sendExcessesTo,
        destination: node.destination,
        amount: loadCoinsAfterQuery(node.body, COCOON_OP.extClientTopUp).toString(),
      },
    });
  },
});

/** A proxy registered at the root, or unregistered from it. */
export const cocoonProxyRegistration = defineMatcher({
  name: 'cocoon_proxy_registration',
  addressKeys: { cocoon_register_proxy: ['destination'], cocoon_unregister_proxy: ['destination'] },
  async match(b) {
    const unregister = isCall(b, COCOON_OP.unregisterProxy);
    if (!unregister && !isCall(b, COCOON_OP.registerProxy)) return null;
    const excesses = child(b, COCOON_OP.returnExcessesBack);
    if (!excesses) return null;
    const node = b.nodes[0]!;
    const common = { query_id: loadQueryId(node.body, unregister ? COCOON_OP.unregisterProxy : COCOON_OP.registerProxy).toString(), destination: node.destination };
    if (unregister) return found({ type: 'cocoon_unregister_proxy', include: [b, excesses], failed: node.failed, details: { ...common, seqno: loadUnregisterSeqno(node.body) } });
    return found({ type: 'cocoon_register_proxy', include: [b, excesses], failed: node.failed, details: common });
  },
});

export const cocoonClientRegister = defineMatcher({
  name: 'cocoon_client_register',
  addressKeys: { cocoon_client_register: KEYS, cocoon_client_change_secret_hash: KEYS },
  async match(b) {
    const change = isCall(b, COCOON_OP.ownerClientChangeSecretHash);
    const r = ownerToClient(b, change ? COCOON_OP.ownerClientChangeSecretHash : COCOON_OP.ownerClientRegister);
    if (!r) return null;
    const common = { query_id: r.queryId, source: r.owner, destination: r.node.destination };
    if (change) {
      return found({ type: 'cocoon_client_change_secret_hash', include: r.include, failed: r.failed, details: { ...common, new_secret_hash: loadNewSecretHash(r.node.body) } });
    }
    return found({ type: 'cocoon_client_register', include: r.include, failed: r.failed, details: { ...common, nonce: loadRegisterNonce(r.node.body).toString() } });
  },
});

/** A refund requested by the client's owner, directly or through the owner's Cocoon wallet. */
export const cocoonClientRequestRefund = defineMatcher({
  name: 'cocoon_client_request_refund',
  addressKeys: { cocoon_client_request_refund: KEYS },
  async match(b) {
    const r = ownerToClient(b, COCOON_OP.ownerClientRequestRefund);
    if (!r) return null;
    const wallet = b.prev && isCall(b.prev, COCOON_OP.ownerWalletSendMessage) ? b.prev : null;
    return found({
      type: 'cocoon_client_request_refund',
      include: [...r.include, ...(wallet ? [wallet] : [])],
      failed: r.failed,
      details: { query_id: r.queryId, via_wallet: wallet !== null, source: r.owner, destination: r.node.destination },
    });
  },
});

export const cocoonClientIncreaseStake = defineMatcher({
  name: 'cocoon_client_increase_stake',
  addressKeys: { cocoon_client_increase_stake: KEYS },
  async match(b) {
    const r = ownerToClient(b, COCOON_OP.ownerClientIncreaseStake);
    if (!r) return null;
    const stake = loadCoinsAfterQuery(r.node.body, COCOON_OP.ownerClientIncreaseStake).toString();
    return found({
      type: 'cocoon_client_increase_stake',
      include: r.include,
      failed: r.failed,
      details: { query_id: r.queryId, new_stake: stake, source: r.owner, destination: r.node.destination, amount: stake },
    });
  },
});

/** The owner withdrawing a client's balance: the proxy pays it out (the payout names the amount). */
export const cocoonClientWithdraw = defineMatcher({
  name: 'cocoon_client_withdraw',
  addressKeys: { cocoon_client_withdraw: KEYS },
  async match(b) {
    if (!isCall(b, COCOON_OP.ownerClientWithdraw)) return null;
    const request = child(b, COCOON_OP.clientProxyRequest);
    const payout = request && child(request, COCOON_OP.payout);
    if (!request || !payout) return null;
    const node = b.nodes[0]!;
    const { queryId, sendExcessesTo } = loadOwnerRequest(node.body, COCOON_OP.ownerClientWithdraw);
    const excesses = child(request, COCOON_OP.returnExcessesBack);
    const amount = payout.nodes[0]!.value?.toString() ?? null;
    return found({
      type: 'cocoon_client_withdraw',
      include: [b, request, payout, ...(excesses ? [excesses] : [])],
      failed: node.failed,
      details: { query_id: queryId.toString(), withdraw_amount: amount, source: sendExcessesTo ?? node.source, destination: node.destination, amount },
    });
  },
});

export const COCOON_MATCHERS = [
  cocoonWorkerPayout,
  cocoonProxyPayout,
  cocoonCharge,
  cocoonClientTopUp,
  cocoonProxyRegistration,
  cocoonClientRegister,
  cocoonClientRequestRefund,
  cocoonClientIncreaseStake,
  cocoonClientWithdraw,
];
