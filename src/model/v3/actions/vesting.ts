/**
 * Vesting wallets: the owner asking the wallet to send a message (it answers, and sends it unless the send mode
 * lets it skip a failing one), the creator adding whitelisted addresses. The reference's rules:
 * `indexer/events/blocks/vesting.py` of toncenter/ton-indexer.
 */
import { VESTING_OP, loadVestingAddWhitelist, loadVestingSendMessage } from '../../tlb/vesting.js';
import { defineMatcher, found, isCall } from './block.js';

export const vestingSendMessage = defineMatcher({
  name: 'vesting_send_message',
  addressKeys: { vesting_send_message: ['source', 'vesting', 'destination'] },
  async match(b) {
    if (!isCall(b, VESTING_OP.sendMessage)) return null;
    const response = b.next.find((n) => isCall(n, VESTING_OP.sendMessageResponse));
    if (!response) return null;
    const node = b.nodes[0]!;
    const request = loadVestingSendMessage(node.body);
    // a message the wallet skipped (mode +2 ignores errors) leaves the request successful but nothing sent
    const sent = b.next.some((n) => n !== response && n.nodes[0]!.destination === request.destination);
    return found({
      type: 'vesting_send_message',
      include: [b, response],
      failed: b.failed || !sent,
      extraAccounts: request.destination ? [request.destination] : [],
      details: {
        query_id: request.queryId.toString(),
        // the reference stores this BoC without a CRC
        message_boc: request.message.toBoc({ idx: false, crc32: false }).toString('base64'),
        source: node.source,
        vesting: node.destination,
        destination: request.destination,
        amount: request.value.toString(),
      },
    });
  },
});

export const vestingAddWhitelist = defineMatcher({
  name: 'vesting_add_whitelist',
  addressKeys: { vesting_add_whitelist: ['source', 'vesting'] },
  async match(b) {
    if (!isCall(b, VESTING_OP.addWhitelist)) return null;
    const response = b.next.find((n) => isCall(n, VESTING_OP.addWhitelistResponse));
    if (!response) return null;
    const node = b.nodes[0]!;
    const request = loadVestingAddWhitelist(node.body);
    return found({
      type: 'vesting_add_whitelist',
      include: [b, response],
      failed: b.failed,
      details: { query_id: request.queryId.toString(), accounts_added: request.addresses, source: node.source, vesting: node.destination },
    });
  },
});

export const VESTING_MATCHERS = [vestingSendMessage, vestingAddWhitelist];
