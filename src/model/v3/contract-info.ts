/**
 * The classifier's account questions (actions/block.ts `ContractInfo`) answered by get-methods on the account's
 * code and data, as the reference's indexer learns them: `get_wallet_data` (jetton wallet), `get_nft_data` (NFT
 * item), DeDust `get_assets` (pool), Getgems `get_sale_data` (fixed-price sale "FIXP" or auction "AUC"), and the
 * data cell itself. The source runs the methods (the local chain through its v2 seam, an emulation on its own
 * states) and keeps the answers per account state; every question of one account and method costs one run.
 */
import { Cell, type TupleItem } from '@ton/core';
import type { Shared } from '../../api/shared-answers.js';
import type { StdStackEntry } from '../../api/v2/run-get-method.js';
import { rawUpper } from '../address.js';
import { loadDedustAsset } from '../tlb/dedust.js';
import type { ContractInfo, NftSaleInfo } from './actions/block.js';

/** A result stack's top values: integers, cells (slices as their cell), anything else null. */
export type GetStack = readonly (bigint | Cell | null)[];

export interface GetMethodRunner {
  /** the method's stack on the account's state, null when it has no code or the method failed (exit code not 0/1) */
  run(address: string, method: string): Promise<GetStack | null>;
  /** the account's data cell, null when it is not active */
  data(address: string): Promise<Cell | null>;
}

const FIXPRICE = 0x46495850n;
const AUCTION = 0x415543n;

const int = (v: bigint | Cell | null | undefined): bigint | null => (typeof v === 'bigint' ? v : null);

/** An address slice as raw uppercase; null for addr_none or anything else. */
function address(v: bigint | Cell | null | undefined): string | null {
  if (!(v instanceof Cell)) return null;
  try {
    const a = v.beginParse().loadMaybeAddress();
    return a ? rawUpper(a) : null;
  } catch {
    return null;
  }
}

/** Getgems sale and auction stacks share their head: (magic, flag, time, marketplace, nft, owner, price, ...). */
function saleOf(st: GetStack | null, magic: bigint): NftSaleInfo | null {
  if (!st || int(st[0]) !== magic) return null;
  const nft = address(st[4]);
  const price = int(st[6]);
  return nft && price !== null ? { marketplace: address(st[3]), nft, owner: address(st[5]), price: price.toString() } : null;
}

/** `get_wallet_data`: (balance, owner, master, wallet code); null when the stack is not a jetton wallet's. */
export function walletData(st: GetStack | null): { balance: bigint; owner: string; jetton: string } | null {
  const balance = int(st?.[0]);
  const owner = address(st?.[1]);
  const jetton = address(st?.[2]);
  return balance !== null && owner && jetton ? { balance, owner, jetton } : null;
}

/** A DeDust asset slice, whole: native$0000 (null) or jetton$0001 wc:int8 addr:uint256; undefined for anything else. */
function poolAsset(c: Cell): string | null | undefined {
  const s = c.beginParse();
  const kind = s.remainingBits >= 4 ? s.preloadUint(4) : -1;
  const whole = (kind === 0 && s.remainingBits === 4) || (kind === 1 && s.remainingBits === 4 + 8 + 256);
  return whole && s.remainingRefs === 0 ? loadDedustAsset(s) : undefined;
}

export function getMethodContractInfo(r: GetMethodRunner): ContractInfo {
  return {
    jettonWallet: async (a) => {
      const w = walletData(await r.run(a, 'get_wallet_data'));
      return w && { owner: w.owner, jetton: w.jetton };
    },
    nftItem: async (a) => {
      const st = await r.run(a, 'get_nft_data');
      const index = int(st?.[1]);
      return index !== null ? { index: index.toString(), collection: address(st![2]) } : null;
    },
    dexPool: async (a) => {
      const st = await r.run(a, 'get_assets');
      if (!st || !(st[0] instanceof Cell) || !(st[1] instanceof Cell)) return null;
      const assets = [poolAsset(st[0]), poolAsset(st[1])];
      return assets.includes(undefined) ? null : (assets as (string | null)[]);
    },
    nftSale: async (a) => saleOf(await r.run(a, 'get_sale_data'), FIXPRICE),
    nftAuction: async (a) => saleOf(await r.run(a, 'get_sale_data'), AUCTION),
    contractData: (a) => r.data(a),
  };
}

/** A v2 std stack in the form above. */
export function stdGetStack(stack: readonly Shared<StdStackEntry>[]): GetStack {
  return stack.map((e) => {
    if (e['@type'] === 'tvm.stackEntryNumber') return BigInt(e.number.number);
    if (e['@type'] === 'tvm.stackEntryCell') return Cell.fromBase64(e.cell.bytes);
    if (e['@type'] === 'tvm.stackEntrySlice') return Cell.fromBase64(e.slice.bytes);
    return null;
  });
}

/** An executor's tuple in the form above. */
export function tupleGetStack(items: readonly TupleItem[]): GetStack {
  return items.map((t) => (t.type === 'int' ? t.value : t.type === 'cell' || t.type === 'slice' || t.type === 'builder' ? t.cell : null));
}
