/**
 * Wallet v4 plugin subscriptions: a payment the subscription asked for and the wallet sent (the wallet's answer,
 * then the subscription paying its beneficiary), and a subscription removed (the wallet's `destruct`, passed on to
 * the beneficiary). The reference's rules: `indexer/events/blocks/subscriptions.py` of toncenter/ton-indexer.
 */
import { defineMatcher, found, isCall } from './block.js';

export const SUBSCRIPTION_OP = {
  paymentRequest: 0x706c7567,
  paymentRequestResponse: 0xf06c7567,
  payment: 0x73756273,
  destruct: 0x64737472,
} as const;

export const subscribe = defineMatcher({
  name: 'subscribe',
  addressKeys: { subscribe: ['subscriber', 'beneficiary', 'subscription'] },
  async match(b) {
    if (!isCall(b, SUBSCRIPTION_OP.paymentRequestResponse)) return null;
    const payment = b.next.find((n) => isCall(n, SUBSCRIPTION_OP.payment));
    if (!payment) return null;
    const request = b.prev && isCall(b.prev, SUBSCRIPTION_OP.paymentRequest) ? b.prev : null;
    const node = b.nodes[0]!;
    // the amount asked for (request: op, query_id, grams), else what the wallet sent
    let amount = node.value?.toString() ?? null;
    if (request) {
      const s = request.nodes[0]!.body.beginParse();
      s.skip(32 + 64);
      amount = s.loadCoins().toString();
    }
    return found({
      type: 'subscribe',
      include: request ? [b, payment, request] : [b, payment],
      failed: request?.failed ?? false,
      details: { subscriber: node.source, subscription: node.destination, beneficiary: payment.nodes[0]!.destination, amount },
    });
  },
});

export const unsubscribe = defineMatcher({
  name: 'unsubscribe',
  addressKeys: { unsubscribe: ['subscriber', 'beneficiary', 'subscription'] },
  async match(b) {
    if (!isCall(b, SUBSCRIPTION_OP.destruct)) return null;
    const passed = b.next.find((n) => isCall(n, SUBSCRIPTION_OP.destruct));
    const node = b.nodes[0]!;
    const beneficiary = passed?.nodes[0]!.destination;
    return found({
      type: 'unsubscribe',
      include: passed ? [b, passed] : [b],
      failed: false,
      details: { subscriber: node.source, subscription: node.destination, ...(beneficiary ? { beneficiary } : {}), amount: null },
    });
  },
});

export const SUBSCRIPTION_MATCHERS = [subscribe, unsubscribe];
