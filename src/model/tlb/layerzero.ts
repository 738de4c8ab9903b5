/**
 * LayerZero v2 on TON: the messages of a packet's commit (executor → ULN → ULN connection → endpoint → channel),
 * of a DVN's verification (DVN → proxy → ULN → ULN connection → its callback) and of a packet's delivery (executor
 * → channel → OApp, which locks, is handed the packet and calls back), as the reference classifier
 * reads them (`indexer/events/blocks/messages/layerzero.py` of toncenter/ton-indexer; LayerZero's TON contracts).
 *
 * Every LayerZero message body is opcode:uint32 query_id:uint64 donation:Coins origin:MsgAddress ^md, where md is
 * a typed object: a header (its type's header info, then a filler of ones, 350 bits together) and its members.
 *   lz::Packet  (152-bit header) ^path ^message nonce:uint64 guid:uint256
 *   lz::Path    (152-bit header) src_eid:uint32 src_oapp:uint256 dst_eid:uint32 dst_oapp:uint256
 *   md::VerificationStatus (116-bit header) nonce:uint64 status:uint32
 *   md::LzSend  ("lzSend":uint80, a 180-bit header, 90 ones) send_request_id:uint64 msglib_manager:uint256
 *     msglib:uint256 ^packet ^extra_options ^[ msglib_connection:uint256 native_fee:uint128 zro_fee:uint128 ... ]
 *   channel_send_callback (channel → OApp): the LzSend three refs deep
 *   channel_commit_packet and lz_receive_execute: md = ^[ ^packet ... ];  uln_connection_verify_callback: md = md::MdObj ^status ^storage
 */
import type { Cell, Slice } from '@ton/core';

export const LZ_OP = {
  ulnCommitPacket: 0x28b97077,
  ulnConnectionCommitPacket: 0xf9d37b80,
  endpointCommitPacket: 0x5dab749a,
  channelCommitPacket: 0x5388cd88,
  msglibConnectionCommitPacketCallback: 0x5e178f33,
  dvnVerify: 0xa0d51a8d,
  proxyCallContract: 0x09f047d9,
  ulnVerify: 0x994aaf4e,
  ulnConnectionVerify: 0x4ec8f80a,
  ulnConnectionVerifyCallback: 0x3cb38090,
  endpointSend: 0xdd4ea3b4,
  channelSend: 0x536feb09,
  msglibConnectionSend: 0x4002b790,
  ulnSend: 0x5de68393,
  channelMsglibSendCallback: 0x421c1a25,
  channelSendCallback: 0xa2b5fbae,
  channelLzReceivePrepare: 0x22f3ac09,
  lzReceivePrepare: 0x97df404c,
  channelLzReceiveLock: 0xb7680bc6,
  lzReceiveExecute: 0x0c7b8418,
  oappExecuteCallback: 0xcaae25a1,
  /** an event the contracts emit to an event sink (LayerZeroEventMsgBody) */
  event: 0xe33b9873,
} as const;

const PACKET_HEADER = 417359019239977417716476838698419835n;
const PATH_HEADER = 8903714975572488637007080065659n;
const VERIFICATION_STATUS_HEADER = 38421788582694199859296615363593851n;
/** a typed object's header and filler together */
const HEADER_BITS = 350;

/** Reads a typed object's header; throws when it is another type's. */
function header(s: Slice, infoBits: number, info: bigint): void {
  if (s.loadUintBig(infoBits) !== info) throw new Error('not the expected LayerZero object');
  const fillerBits = HEADER_BITS - infoBits;
  if (s.loadUintBig(fillerBits) !== (1n << BigInt(fillerBits)) - 1n) throw new Error('LayerZero header filler is not all ones');
}

/** A number printed as Python's hex() does: no leading zeros. */
const hex = (n: bigint): string => `0x${n.toString(16)}`;

export interface LzPacket {
  srcEid: number;
  srcOapp: string;
  dstEid: number;
  dstOapp: string;
  nonce: bigint;
  guid: string;
  message: string;
}

function loadPacket(cell: Cell): LzPacket {
  const s = cell.beginParse();
  header(s, 152, PACKET_HEADER);
  const path = s.loadRef().beginParse();
  header(path, 152, PATH_HEADER);
  const srcEid = path.loadUint(32);
  const srcOapp = hex(path.loadUintBig(256));
  const dstEid = path.loadUint(32);
  const dstOapp = hex(path.loadUintBig(256));
  const msg = s.loadRef();
  // the message cell's bits as bytes, the last one padded with zeros
  const bits = msg.bits.length;
  const m = msg.beginParse();
  const bytes = Buffer.alloc(Math.ceil(bits / 8));
  for (let i = 0; i < bits; i++) if (m.loadBit()) bytes[i >> 3]! |= 0x80 >> (i & 7);
  return { srcEid, srcOapp, dstEid, dstOapp, nonce: s.loadUintBig(64), guid: hex(s.loadUintBig(256)), message: `0x${bytes.toString('hex')}` };
}

/** channel_commit_packet (the packet committed) and lz_receive_execute (the packet delivered to the OApp). */
export const loadLzMdPacket = (body: Cell): LzPacket => loadPacket(body.beginParse().loadRef().beginParse().loadRef());

const LZ_SEND_NAME = BigInt(`0x${Buffer.from('lzSend').toString('hex')}`);
const LZ_SEND_HEADER = 582890735024998957421269964955452773563747974476099581n;

export interface LzSend {
  requestId: bigint;
  msglibManager: string;
  msglib: string;
  packet: LzPacket;
  nativeFee: bigint;
  zroFee: bigint;
}

/** channel_send_callback: the send the channel made for the OApp. */
export function loadLzSendCallback(body: Cell): LzSend {
  const s = body.refs[0]!.refs[0]!.refs[0]!.beginParse();
  if (s.loadUintBig(80) !== LZ_SEND_NAME || s.loadUintBig(180) !== LZ_SEND_HEADER) throw new Error('not a LayerZero lzSend');
  if (s.loadUintBig(90) !== (1n << 90n) - 1n) throw new Error('LayerZero header filler is not all ones');
  const requestId = s.loadUintBig(64);
  const msglibManager = hex(s.loadUintBig(256));
  const msglib = hex(s.loadUintBig(256));
  const packet = loadPacket(s.loadRef());
  s.loadRef();
  const fees = s.loadRef().beginParse();
  fees.skip(256);
  return { requestId, msglibManager, msglib, packet, nativeFee: fees.loadUintBig(128), zroFee: fees.loadUintBig(128) };
}

const VERIFY_STATUS: ReadonlyMap<number, string> = new Map([
  [0x3bbc306b, 'succeeded'],
  [0x7fcbb4ac, 'nonce_out_of_range'],
  [0x29c53fab, 'dvn_not_configured'],
]);

/** uln_connection_verify_callback: the nonce verified and the outcome's name. */
export function loadLzVerifyCallback(body: Cell): { nonce: bigint; status: string } {
  const s = body.beginParse().loadRef().beginParse().loadRef().beginParse();
  header(s, 116, VERIFICATION_STATUS_HEADER);
  const nonce = s.loadUintBig(64);
  const code = s.loadUint(32);
  return { nonce, status: VERIFY_STATUS.get(code) ?? `unknown_${code}` };
}
