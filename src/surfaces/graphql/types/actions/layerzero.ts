/** Details of LayerZero messaging actions (v3.md §4.4 "LayerZero"). */
import type { LayerZeroPacketData, LayerZeroSendData } from '../../../../api/v3/action-details.js';
import { detailsType, structType } from './kit.js';

const SendDataRef = structType<LayerZeroSendData>('LayerZeroSendData', 'How a LayerZero packet was sent: library, fees, endpoint, channel.', (f) => ({
  sendRequestId: f.bigint('send_request_id', (s) => s.send_request_id),
  msglibManager: f.string('msglib_manager', (s) => s.msglib_manager),
  msglib: f.string('msglib', (s) => s.msglib),
  uln: f.account('uln', (s) => s.uln),
  nativeFee: f.bigint('native_fee', (s) => s.native_fee),
  zroFee: f.bigint('zro_fee', (s) => s.zro_fee),
  endpoint: f.account('endpoint', (s) => s.endpoint),
  channel: f.account('channel', (s) => s.channel),
}));

const PacketRef = structType<LayerZeroPacketData>('LayerZeroPacket', 'A LayerZero packet: its apps, endpoints, nonce and message.', (f) => ({
  srcOapp: f.string('src_oapp', (p) => p.src_oapp),
  dstOapp: f.string('dst_oapp', (p) => p.dst_oapp),
  srcEid: f.int('src_eid', (p) => p.src_eid),
  dstEid: f.int('dst_eid', (p) => p.dst_eid),
  nonce: f.bigint('nonce', (p) => p.nonce),
  guid: f.string('guid', (p) => p.guid),
  message: f.string('message', (p) => p.message),
}));

export const LAYERZERO_DETAILS = [
  detailsType('LayerZeroSendDetails', ['layerzero_send'], 'A LayerZero packet sent', (f) => ({
    initiator: f.account('initiator', (a) => a.details.initiator),
    sendData: f.object('layerzero_send_data', SendDataRef, (a) => a.details.layerzero_send_data),
    packet: f.object('layerzero_packet_data', PacketRef, (a) => a.details.layerzero_packet_data),
  })),
  detailsType('LayerZeroSendTokensDetails', ['layerzero_send_tokens'], 'Jettons sent over LayerZero', (f) => ({
    sender: f.account('sender', (a) => a.details.sender),
    ...f.jettonWallet('senderWallet', 'sender_wallet', (a) => a.details.sender_wallet),
    oapp: f.account('oapp', (a) => a.details.oapp),
    ...f.jettonWallet('oappWallet', 'oapp_wallet', (a) => a.details.oapp_wallet),
    ...f.jetton('asset', 'asset', (a) => a.details.asset),
    amount: f.bigint('amount', (a) => a.details.amount),
    sendData: f.object('layerzero_send_data', SendDataRef, (a) => a.details.layerzero_send_data),
    packet: f.object('layerzero_packet_data', PacketRef, (a) => a.details.layerzero_packet_data),
  })),
  detailsType('LayerZeroReceiveDetails', ['layerzero_receive'], 'A LayerZero packet delivered', (f) => ({
    sender: f.account('sender', (a) => a.details.sender),
    oapp: f.account('oapp', (a) => a.details.oapp),
    channel: f.account('channel', (a) => a.details.channel),
    packet: f.object('layerzero_packet_data', PacketRef, (a) => a.details.layerzero_packet_data),
  })),
  detailsType('LayerZeroCommitPacketDetails', ['layerzero_commit_packet'], 'A LayerZero packet committed', (f) => ({
    sender: f.account('sender', (a) => a.details.sender),
    endpoint: f.account('endpoint', (a) => a.details.endpoint),
    uln: f.account('uln', (a) => a.details.uln),
    ulnConnection: f.account('uln_connection', (a) => a.details.uln_connection),
    channel: f.account('channel', (a) => a.details.channel),
    msglibConnection: f.account('msglib_connection', (a) => a.details.msglib_connection),
    packet: f.object('layerzero_packet_data', PacketRef, (a) => a.details.layerzero_packet_data),
  })),
  detailsType('LayerZeroDvnVerifyDetails', ['layerzero_dvn_verify'], 'A LayerZero DVN verification', (f) => ({
    initiator: f.account('initiator', (a) => a.details.initiator),
    nonce: f.bigint('nonce', (a) => a.details.nonce),
    status: f.string('status', (a) => a.details.status),
    dvn: f.account('dvn', (a) => a.details.dvn),
    proxy: f.account('proxy', (a) => a.details.proxy),
    uln: f.account('uln', (a) => a.details.uln),
    ulnConnection: f.account('uln_connection', (a) => a.details.uln_connection),
  })),
];
