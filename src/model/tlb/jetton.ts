/**
 * Jetton message bodies: TEP-74 (github.com/ton-blockchain/TEPs, text/0074-jettons-standard.md), TEP-89
 * wallet discovery (text/0089-jetton-wallet-discovery.md), and the mint and admin ops of the reference minter
 * (ton-blockchain/token-contract, ft/jetton-minter.fc; the stablecoin minter's ops as ton-indexer's marker names them).
 *
 *   transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
 *     response_destination:MsgAddress custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16)
 *     forward_payload:(Either Cell ^Cell) = InternalMsgBody;
 *   internal_transfer#178d4519 query_id:uint64 amount:(VarUInteger 16) from:MsgAddress
 *     response_address:MsgAddress forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
 *     = InternalMsgBody;
 *   transfer_notification#7362d09c query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
 *     forward_payload:(Either Cell ^Cell) = InternalMsgBody;
 *   excesses#d53276db query_id:uint64 = InternalMsgBody;                      (common.ts)
 *   burn#595f07bc query_id:uint64 amount:(VarUInteger 16) response_destination:MsgAddress
 *     custom_payload:(Maybe ^Cell) = InternalMsgBody;
 *   burn_notification#7bdd97de query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
 *     response_destination:MsgAddress = InternalMsgBody;
 *   provide_wallet_address#2c76b973 query_id:uint64 owner_address:MsgAddress include_address:Bool = InternalMsgBody;
 *   take_wallet_address#d1735400 query_id:uint64 wallet_address:MsgAddress owner_address:(Maybe ^MsgAddress)
 *     = InternalMsgBody;
 *   mint#642b7d07 query_id:uint64 to_address:MsgAddress ton_amount:Coins master_msg:^InternalMsgBody = InternalMsgBody;
 *   minter_mint#00000015 query_id:uint64 to_address:MsgAddress ton_amount:Coins master_msg:^InternalMsgBody
 *     = InternalMsgBody;   (op 21 of the older reference minter)
 *   change_admin#00000003 query_id:uint64 new_admin:MsgAddress = InternalMsgBody;   (reference minter)
 *   change_content#00000004 query_id:uint64 content:^Cell = InternalMsgBody;         (reference minter)
 */
import type { Builder, Cell, Slice } from '@ton/core';
import { loadEitherCell, loadMsgAddress, loadOp, storeEitherCell, type MsgAddress } from './common.js';

export const JETTON_OP = {
  transfer: 0x0f8a7ea5,
  internalTransfer: 0x178d4519,
  transferNotification: 0x7362d09c,
  burn: 0x595f07bc,
  burnNotification: 0x7bdd97de,
  provideWalletAddress: 0x2c76b973,
  takeWalletAddress: 0xd1735400,
  mint: 0x642b7d07,
  minterMint: 0x00000015,
  changeAdmin: 0x00000003,
  changeContent: 0x00000004,
  /** the stablecoin minter's admin and status ops and the wallet top-up, named by the marker only */
  stablecoinChangeAdmin: 0x6501f354,
  setStatus: 0xeed236d3,
  topUp: 0xd372158c,
} as const;

export interface JettonTransfer {
  queryId: bigint;
  amount: bigint;
  destination: MsgAddress;
  responseDestination: MsgAddress;
  customPayload: Cell | null;
  forwardTonAmount: bigint;
  forwardPayload: Cell | null;
}

export function loadJettonTransfer(s: Slice): JettonTransfer {
  loadOp(s, JETTON_OP.transfer, 'transfer');
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    destination: loadMsgAddress(s),
    responseDestination: loadMsgAddress(s),
    customPayload: s.loadMaybeRef(),
    forwardTonAmount: s.loadCoins(),
    forwardPayload: loadEitherCell(s),
  };
}

export const storeJettonTransfer =
  (x: JettonTransfer) =>
  (b: Builder): void => {
    b.storeUint(JETTON_OP.transfer, 32)
      .storeUint(x.queryId, 64)
      .storeCoins(x.amount)
      .storeAddress(x.destination)
      .storeAddress(x.responseDestination)
      .storeMaybeRef(x.customPayload)
      .storeCoins(x.forwardTonAmount)
      .store(storeEitherCell(x.forwardPayload));
  };

export interface JettonInternalTransfer {
  queryId: bigint;
  amount: bigint;
  from: MsgAddress;
  responseAddress: MsgAddress;
  forwardTonAmount: bigint;
  forwardPayload: Cell | null;
}

export function loadJettonInternalTransfer(s: Slice): JettonInternalTransfer {
  loadOp(s, JETTON_OP.internalTransfer, 'internal_transfer');
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    from: loadMsgAddress(s),
    responseAddress: loadMsgAddress(s),
    forwardTonAmount: s.loadCoins(),
    forwardPayload: loadEitherCell(s),
  };
}

export const storeJettonInternalTransfer =
  (x: JettonInternalTransfer) =>
  (b: Builder): void => {
    b.storeUint(JETTON_OP.internalTransfer, 32)
      .storeUint(x.queryId, 64)
      .storeCoins(x.amount)
      .storeAddress(x.from)
      .storeAddress(x.responseAddress)
      .storeCoins(x.forwardTonAmount)
      .store(storeEitherCell(x.forwardPayload));
  };

/** The amount of an internal_transfer, read without the fields after it (a minter's master_msg). */
export function preloadInternalTransferAmount(body: Cell): bigint {
  const s = body.beginParse();
  s.skip(32 + 64);
  return s.loadCoins();
}

export interface JettonTransferNotification {
  queryId: bigint;
  amount: bigint;
  sender: MsgAddress;
  forwardPayload: Cell | null;
}

export function loadJettonTransferNotification(s: Slice): JettonTransferNotification {
  loadOp(s, JETTON_OP.transferNotification, 'transfer_notification');
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), sender: loadMsgAddress(s), forwardPayload: loadEitherCell(s) };
}

export const storeJettonTransferNotification =
  (x: JettonTransferNotification) =>
  (b: Builder): void => {
    b.storeUint(JETTON_OP.transferNotification, 32)
      .storeUint(x.queryId, 64)
      .storeCoins(x.amount)
      .storeAddress(x.sender)
      .store(storeEitherCell(x.forwardPayload));
  };

export interface JettonBurn {
  queryId: bigint;
  amount: bigint;
  responseDestination: MsgAddress;
  customPayload: Cell | null;
}

export function loadJettonBurn(s: Slice): JettonBurn {
  loadOp(s, JETTON_OP.burn, 'burn');
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    responseDestination: loadMsgAddress(s),
    // some wallets send the burn without the trailing Maybe bit
    customPayload: s.remainingBits > 0 ? s.loadMaybeRef() : null,
  };
}

export const storeJettonBurn =
  (x: JettonBurn) =>
  (b: Builder): void => {
    b.storeUint(JETTON_OP.burn, 32)
      .storeUint(x.queryId, 64)
      .storeCoins(x.amount)
      .storeAddress(x.responseDestination)
      .storeMaybeRef(x.customPayload);
  };

export interface JettonBurnNotification {
  queryId: bigint;
  amount: bigint;
  sender: MsgAddress;
  responseDestination: MsgAddress;
}

export function loadJettonBurnNotification(s: Slice): JettonBurnNotification {
  loadOp(s, JETTON_OP.burnNotification, 'burn_notification');
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), sender: loadMsgAddress(s), responseDestination: loadMsgAddress(s) };
}

export const storeJettonBurnNotification =
  (x: JettonBurnNotification) =>
  (b: Builder): void => {
    b.storeUint(JETTON_OP.burnNotification, 32)
      .storeUint(x.queryId, 64)
      .storeCoins(x.amount)
      .storeAddress(x.sender)
      .storeAddress(x.responseDestination);
  };

export interface ProvideWalletAddress {
  queryId: bigint;
  ownerAddress: MsgAddress;
  includeAddress: boolean;
}

export function loadProvideWalletAddress(s: Slice): ProvideWalletAddress {
  loadOp(s, JETTON_OP.provideWalletAddress, 'provide_wallet_address');
  return { queryId: s.loadUintBig(64), ownerAddress: loadMsgAddress(s), includeAddress: s.loadBit() };
}

export const storeProvideWalletAddress =
  (x: ProvideWalletAddress) =>
  (b: Builder): void => {
    b.storeUint(JETTON_OP.provideWalletAddress, 32).storeUint(x.queryId, 64).storeAddress(x.ownerAddress).storeBit(x.includeAddress);
  };

export interface TakeWalletAddress {
  queryId: bigint;
  walletAddress: MsgAddress;
  /** the owner's address in a ref when include_address was set */
  ownerAddress: Cell | null;
}

export function loadTakeWalletAddress(s: Slice): TakeWalletAddress {
  loadOp(s, JETTON_OP.takeWalletAddress, 'take_wallet_address');
  return { queryId: s.loadUintBig(64), walletAddress: loadMsgAddress(s), ownerAddress: s.loadMaybeRef() };
}

export const storeTakeWalletAddress =
  (x: TakeWalletAddress) =>
  (b: Builder): void => {
    b.storeUint(JETTON_OP.takeWalletAddress, 32).storeUint(x.queryId, 64).storeAddress(x.walletAddress).storeMaybeRef(x.ownerAddress);
  };

/** Both mint constructors; `master_msg` is optional on read, as the marker reads mint#642b7d07 without it. */
export interface JettonMint {
  type: 'mint' | 'minter_mint';
  queryId: bigint;
  toAddress: MsgAddress;
  tonAmount: bigint;
  masterMsg: Cell | null;
}

export function loadJettonMint(s: Slice): JettonMint {
  const op = s.loadUint(32);
  if (op !== JETTON_OP.mint && op !== JETTON_OP.minterMint) throw new Error(`not mint: op 0x${op.toString(16)}`);
  const type = op === JETTON_OP.mint ? 'mint' : 'minter_mint';
  const queryId = s.loadUintBig(64);
  const toAddress = loadMsgAddress(s);
  const tonAmount = s.loadCoins();
  const masterMsg = type === 'minter_mint' ? s.loadRef() : s.remainingRefs > 0 ? s.loadRef() : null;
  return { type, queryId, toAddress, tonAmount, masterMsg };
}

export const storeJettonMint =
  (x: JettonMint) =>
  (b: Builder): void => {
    b.storeUint(x.type === 'mint' ? JETTON_OP.mint : JETTON_OP.minterMint, 32)
      .storeUint(x.queryId, 64)
      .storeAddress(x.toAddress)
      .storeCoins(x.tonAmount);
    if (x.masterMsg) b.storeRef(x.masterMsg);
  };
