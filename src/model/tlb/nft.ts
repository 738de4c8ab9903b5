/**
 * NFT message bodies: TEP-62 (github.com/ton-blockchain/TEPs, text/0062-nft-standard.md), TEP-66 royalties
 * (text/0066-nft-royalty-standard.md), and the item deploy of the reference collection
 * (ton-blockchain/token-contract, nft/nft-collection.fc).
 *
 *   transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress
 *     custom_payload:(Maybe ^Cell) forward_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
 *     = InternalMsgBody;
 *   ownership_assigned#05138d91 query_id:uint64 prev_owner:MsgAddress forward_payload:(Either Cell ^Cell)
 *     = InternalMsgBody;
 *   excesses#d53276db query_id:uint64 = InternalMsgBody;                      (common.ts)
 *   get_static_data#2fcb26a2 query_id:uint64 = InternalMsgBody;
 *   report_static_data#8b771735 query_id:uint64 index:uint256 collection:MsgAddress = InternalMsgBody;
 *   get_royalty_params#693d3950 query_id:uint64 = InternalMsgBody;
 *   report_royalty_params#a8cb00ad query_id:uint64 numerator:uint16 denominator:uint16 destination:MsgAddress
 *     = InternalMsgBody;
 *   deploy_item#00000001 query_id:uint64 item_index:uint64 amount:Coins content:^Cell = InternalMsgBody;
 *     (content: owner:MsgAddress individual_content:^Cell, what the new item's init reads)
 *   change_owner#00000003 query_id:uint64 new_owner:MsgAddress = InternalMsgBody;   (reference collection)
 */
import { beginCell, type Builder, type Cell, type Slice } from '@ton/core';
import { loadEitherCell, loadMsgAddress, loadOp, storeEitherCell, type MsgAddress } from './common.js';

export const NFT_OP = {
  transfer: 0x5fcc3d14,
  ownershipAssigned: 0x05138d91,
  getStaticData: 0x2fcb26a2,
  reportStaticData: 0x8b771735,
  getRoyaltyParams: 0x693d3950,
  reportRoyaltyParams: 0xa8cb00ad,
  deployItem: 0x00000001,
  changeOwner: 0x00000003,
} as const;

export interface NftTransfer {
  queryId: bigint;
  newOwner: MsgAddress;
  responseDestination: MsgAddress;
  customPayload: Cell | null;
  forwardAmount: bigint;
  forwardPayload: Cell | null;
}

export function loadNftTransfer(s: Slice): NftTransfer {
  loadOp(s, NFT_OP.transfer, 'transfer');
  return {
    queryId: s.loadUintBig(64),
    newOwner: loadMsgAddress(s),
    responseDestination: loadMsgAddress(s),
    customPayload: s.loadMaybeRef(),
    forwardAmount: s.loadCoins(),
    forwardPayload: loadEitherCell(s),
  };
}

export const storeNftTransfer =
  (x: NftTransfer) =>
  (b: Builder): void => {
    b.storeUint(NFT_OP.transfer, 32)
      .storeUint(x.queryId, 64)
      .storeAddress(x.newOwner)
      .storeAddress(x.responseDestination)
      .storeMaybeRef(x.customPayload)
      .storeCoins(x.forwardAmount)
      .store(storeEitherCell(x.forwardPayload));
  };

export interface NftOwnershipAssigned {
  queryId: bigint;
  prevOwner: MsgAddress;
  forwardPayload: Cell | null;
}

export function loadNftOwnershipAssigned(s: Slice): NftOwnershipAssigned {
  loadOp(s, NFT_OP.ownershipAssigned, 'ownership_assigned');
  return { queryId: s.loadUintBig(64), prevOwner: loadMsgAddress(s), forwardPayload: loadEitherCell(s) };
}

export const storeNftOwnershipAssigned =
  (x: NftOwnershipAssigned) =>
  (b: Builder): void => {
    b.storeUint(NFT_OP.ownershipAssigned, 32).storeUint(x.queryId, 64).storeAddress(x.prevOwner).store(storeEitherCell(x.forwardPayload));
  };

/** get_static_data and get_royalty_params: a query id and nothing else. */
export interface NftQuery {
  type: 'get_static_data' | 'get_royalty_params';
  queryId: bigint;
}

const QUERY_OPS = { get_static_data: NFT_OP.getStaticData, get_royalty_params: NFT_OP.getRoyaltyParams } as const;

export function loadNftQuery(s: Slice): NftQuery {
  const op = s.loadUint(32);
  const type = op === NFT_OP.getStaticData ? 'get_static_data' : op === NFT_OP.getRoyaltyParams ? 'get_royalty_params' : null;
  if (!type) throw new Error(`not an NFT query: op 0x${op.toString(16)}`);
  return { type, queryId: s.loadUintBig(64) };
}

export const storeNftQuery =
  (x: NftQuery) =>
  (b: Builder): void => {
    b.storeUint(QUERY_OPS[x.type], 32).storeUint(x.queryId, 64);
  };

export interface NftReportStaticData {
  queryId: bigint;
  index: bigint;
  collection: MsgAddress;
}

export function loadNftReportStaticData(s: Slice): NftReportStaticData {
  loadOp(s, NFT_OP.reportStaticData, 'report_static_data');
  return { queryId: s.loadUintBig(64), index: s.loadUintBig(256), collection: loadMsgAddress(s) };
}

export const storeNftReportStaticData =
  (x: NftReportStaticData) =>
  (b: Builder): void => {
    b.storeUint(NFT_OP.reportStaticData, 32).storeUint(x.queryId, 64).storeUint(x.index, 256).storeAddress(x.collection);
  };

export interface NftReportRoyaltyParams {
  queryId: bigint;
  numerator: number;
  denominator: number;
  destination: MsgAddress;
}

export function loadNftReportRoyaltyParams(s: Slice): NftReportRoyaltyParams {
  loadOp(s, NFT_OP.reportRoyaltyParams, 'report_royalty_params');
  return { queryId: s.loadUintBig(64), numerator: s.loadUint(16), denominator: s.loadUint(16), destination: loadMsgAddress(s) };
}

export const storeNftReportRoyaltyParams =
  (x: NftReportRoyaltyParams) =>
  (b: Builder): void => {
    b.storeUint(NFT_OP.reportRoyaltyParams, 32).storeUint(x.queryId, 64).storeUint(x.numerator, 16).storeUint(x.denominator, 16).storeAddress(x.destination);
  };

export interface NftDeployItem {
  queryId: bigint;
  itemIndex: bigint;
  amount: bigint;
  owner: MsgAddress;
  individualContent: Cell;
}

export function loadNftDeployItem(s: Slice): NftDeployItem {
  loadOp(s, NFT_OP.deployItem, 'deploy_item');
  const queryId = s.loadUintBig(64);
  const itemIndex = s.loadUintBig(64);
  const amount = s.loadCoins();
  const content = s.loadRef().beginParse();
  return { queryId, itemIndex, amount, owner: loadMsgAddress(content), individualContent: content.loadRef() };
}

export const storeNftDeployItem =
  (x: NftDeployItem) =>
  (b: Builder): void => {
    b.storeUint(NFT_OP.deployItem, 32)
      .storeUint(x.queryId, 64)
      .storeUint(x.itemIndex, 64)
      .storeCoins(x.amount)
      .storeRef(beginCell().storeAddress(x.owner).storeRef(x.individualContent));
  };
