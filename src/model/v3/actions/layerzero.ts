/**
 * LayerZero v2: an executor committing a verified packet to the endpoint (through the ULN, its connection and the
 * channel), a DVN verifying one (through its proxy, the ULN and the connection's callback), and an executor
 * delivering one to its OApp (the channel preparing, the OApp locking, the channel executing, the OApp calling
 * back). The reference's
 * rules: `indexer/events/blocks/layerzero.py` of toncenter/ton-indexer.
 */
import type { LayerZeroPacketData } from '../../../api/v3/action-details.js';
import { LZ_OP, loadLzMdPacket, loadLzSendCallback, loadLzVerifyCallback, type LzPacket } from '../../tlb/layerzero.js';
import { defineMatcher, detailsOf, found, isCall, type Block } from './block.js';

/** The calls after `b`, each the next one's parent, with these opcodes in turn; null when one is missing. */
function callChain(b: Block, ops: readonly number[]): Block[] | null {
  const out: Block[] = [];
  let at = b;
  for (const op of ops) {
    const next = at.next.find((n) => isCall(n, op));
    if (!next) return null;
    out.push((at = next));
  }
  return out;
}

/** The optional ton_transfer (excess) after a callback. */
const excess = (b: Block): Block[] => b.next.filter((n) => n.type === 'ton_transfer').slice(0, 1);

/** The events (LayerZeroEventMsgBody) a contract emitted after `b`, at most one. */
const events = (b: Block): Block[] => b.next.filter((n) => isCall(n, LZ_OP.event)).slice(0, 1);

const packetData = (p: LzPacket): LayerZeroPacketData => ({
  src_oapp: p.srcOapp,
  dst_oapp: p.dstOapp,
  src_eid: p.srcEid,
  dst_eid: p.dstEid,
  nonce: Number(p.nonce),
  guid: p.guid,
  message: p.message,
});

export const layerzeroCommitPacket = defineMatcher({
  name: 'layerzero_commit_packet',
  addressKeys: { layerzero_commit_packet: ['sender', 'endpoint', 'uln', 'uln_connection', 'channel', 'msglib_connection'] },
  async match(b) {
    if (!isCall(b, LZ_OP.ulnCommitPacket)) return null;
    const chain = callChain(b, [LZ_OP.ulnConnectionCommitPacket, LZ_OP.endpointCommitPacket, LZ_OP.channelCommitPacket, LZ_OP.msglibConnectionCommitPacketCallback]);
    if (!chain) return null;
    const [connection, endpoint, channel, callback] = chain as [Block, Block, Block, Block];
    const packet = loadLzMdPacket(channel.nodes[0]!.body);
    const ulnConnection = connection.nodes[0]!.destination;
    return found({
      type: 'layerzero_commit_packet',
      include: [b, connection, endpoint, channel, callback, ...excess(callback), ...events(channel)],
      failed: false,
      details: {
        sender: b.nodes[0]!.source,
        endpoint: endpoint.nodes[0]!.destination,
        // the reference names the connection as the ULN too
        uln: ulnConnection,
        uln_connection: ulnConnection,
        channel: channel.nodes[0]!.destination,
        msglib_connection: callback.nodes[0]!.destination,
        layerzero_packet_data: packetData(packet),
      },
    });
  },
});

export const layerzeroDvnVerify = defineMatcher({
  name: 'layerzero_dvn_verify',
  addressKeys: { layerzero_dvn_verify: ['initiator', 'dvn', 'proxy', 'uln', 'uln_connection'] },
  async match(b) {
    if (!isCall(b, LZ_OP.dvnVerify)) return null;
    const chain = callChain(b, [LZ_OP.proxyCallContract, LZ_OP.ulnVerify, LZ_OP.ulnConnectionVerify, LZ_OP.ulnConnectionVerifyCallback]);
    if (!chain) return null;
    const [proxy, uln, connection, callback] = chain as [Block, Block, Block, Block];
    const verified = loadLzVerifyCallback(callback.nodes[0]!.body);
    return found({
      type: 'layerzero_dvn_verify',
      include: [b, proxy, uln, connection, callback, ...excess(callback), ...events(connection)],
      failed: false,
      details: {
        initiator: b.nodes[0]!.source,
        nonce: Number(verified.nonce),
        status: verified.status,
        dvn: b.nodes[0]!.destination,
        proxy: proxy.nodes[0]!.destination,
        uln: uln.nodes[0]!.destination,
        uln_connection: connection.nodes[0]!.destination,
      },
    });
  },
});

export const layerzeroReceive = defineMatcher({
  name: 'layerzero_receive',
  addressKeys: { layerzero_receive: ['sender', 'oapp', 'channel'] },
  async match(b) {
    if (!isCall(b, LZ_OP.channelLzReceivePrepare)) return null;
    const chain = callChain(b, [LZ_OP.lzReceivePrepare, LZ_OP.channelLzReceiveLock, LZ_OP.lzReceiveExecute, LZ_OP.oappExecuteCallback]);
    if (!chain) return null;
    const [prepare, lock, execute, callback] = chain as [Block, Block, Block, Block];
    const packet = loadLzMdPacket(execute.nodes[0]!.body);
    const node = execute.nodes[0]!;
    // the packet must be for the OApp it was handed to
    if (node.destination?.slice(2).toLowerCase() !== packet.dstOapp.slice(2).toLowerCase()) return null;
    return found({
      type: 'layerzero_receive',
      include: [b, ...excess(b), prepare, lock, execute, ...events(execute), callback, ...events(callback), ...excess(callback)],
      failed: false,
      details: { sender: b.nodes[0]!.source, oapp: node.destination, channel: node.source, layerzero_packet_data: packetData(packet) },
    });
  },
});

export const layerzeroSend = defineMatcher({
  name: 'layerzero_send',
  addressKeys: { layerzero_send: ['initiator'] },
  async match(b) {
    if (!isCall(b, LZ_OP.endpointSend)) return null;
    const chain = callChain(b, [LZ_OP.channelSend, LZ_OP.msglibConnectionSend, LZ_OP.ulnSend, LZ_OP.channelMsglibSendCallback]);
    if (!chain) return null;
    const [channel, , uln, sendCallback] = chain as [Block, Block, Block, Block];
    const sendEvent = events(sendCallback);
    const oappCallback = sendCallback.next.find((n) => isCall(n, LZ_OP.channelSendCallback));
    if (!sendEvent.length || !oappCallback) return null;
    const send = loadLzSendCallback(oappCallback.nodes[0]!.body);
    const excesses = sendCallback.next.filter((n) => n.type === 'ton_transfer').slice(0, 5);
    return found({
      type: 'layerzero_send',
      include: [b, ...chain, ...sendEvent, ...excesses, oappCallback, ...events(oappCallback), ...excess(oappCallback)],
      failed: false,
      details: {
        initiator: b.nodes[0]!.source,
        layerzero_send_data: {
          send_request_id: Number(send.requestId),
          msglib_manager: send.msglibManager,
          msglib: send.msglib,
          uln: uln.nodes[0]!.destination,
          native_fee: Number(send.nativeFee),
          zro_fee: Number(send.zroFee),
          endpoint: b.nodes[0]!.destination,
          channel: channel.nodes[0]!.destination,
        },
        layerzero_packet_data: packetData(send.packet),
      },
    });
  },
});

/** Tokens sent through LayerZero: the jetton transfer to the OApp (which emitted an event) and the send it made. */
export const layerzeroSendTokens = defineMatcher({
  name: 'layerzero_send_tokens',
  addressKeys: { layerzero_send_tokens: ['sender', 'sender_wallet', 'oapp', 'oapp_wallet', 'asset'] },
  async match(b) {
    const send = detailsOf(b, 'layerzero_send');
    const transfer = b.prev && detailsOf(b.prev, 'jetton_transfer');
    if (!send || !transfer) return null;
    const event = events(b.prev!);
    if (!event.length) return null;
    return found({
      type: 'layerzero_send_tokens',
      include: [b, b.prev!, ...event],
      failed: false,
      details: {
        sender: transfer.sender ?? null,
        sender_wallet: transfer.sender_jetton_wallet ?? null,
        oapp: transfer.receiver ?? null,
        oapp_wallet: transfer.receiver_jetton_wallet ?? null,
        asset: transfer.asset ?? null,
        amount: transfer.amount ?? null,
        ...(send.layerzero_send_data ? { layerzero_send_data: send.layerzero_send_data } : {}),
        ...(send.layerzero_packet_data ? { layerzero_packet_data: send.layerzero_packet_data } : {}),
      },
    });
  },
});

export const LAYERZERO_MATCHERS = [layerzeroSend, layerzeroSendTokens, layerzeroReceive, layerzeroCommitPacket, layerzeroDvnVerify];
