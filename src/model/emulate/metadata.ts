/**
 * `metadata` for the token contracts an emulated trace deploys (emulate-v1.md §6). toncenter's worker detects the
 * interfaces of each account the trace touched, on its state after the trace, and its converter adds an entry for
 * every address of the answer its index has no metadata for (ton-indexer ton-emulate-go/models/interfaces.go,
 * appendRawInterfacesDataToMetadata, at eb9fbfa3): a jetton master, an NFT item or an NFT collection, never a jetton
 * wallet (detected, but not added). The entry is `is_indexed: false`, one token_info per interface built from the
 * contract's TEP-64 content alone: type, name, symbol, description, image, and the other keys the reader keeps in
 * `extra` (no `valid`, no `nft_index`).
 *
 * The detectors' checks are the worker's (ton-index-worker smc-interfaces/Tokens.cpp): the get-method answers
 * (exit code 0 or 1) with at least the expected entries of the expected types, address slices are std or addr_none,
 * the content parses. An NFT item of a collection takes its content from the collection's `get_nft_content`, asked
 * of the collection as the world holds it (the worker reads it from the block's shard states) once
 * `get_nft_address_by_index` there names the item.
 */
import { Address, type Cell, type TupleItem } from '@ton/core';
import type { Metadata, TokenInfo } from '../../api/v3/common.js';
import { parseTokenContent } from '../tlb/token-content.js';
import type { RunReader } from './engine.js';

/** TokenInfo's own members, in the order the converter prints them. */
const OWN_KEYS = ['name', 'symbol', 'description', 'image'] as const;
/** The other content keys it keeps, in `extra` (a Go map: printed with its keys sorted). */
const EXTRA_KEYS = ['amount_style', 'decimals', 'image_data', 'render_type', 'uri'] as const;

/** The stack when its first entries have these types (more may follow), else null. */
function typed(stack: TupleItem[] | null, types: TupleItem['type'][]): TupleItem[] | null {
  if (!stack || stack.length < types.length) return null;
  return types.every((t, i) => stack[i]!.type === t) ? stack : null;
}

const cellOf = (t: TupleItem): Cell => (t as { cell: Cell }).cell;
const intOf = (t: TupleItem): bigint => (t as { value: bigint }).value;

/** An address slice: the address, null for addr_none, undefined for anything else (the detector then fails). */
function addressOf(t: TupleItem): Address | null | undefined {
  try {
    return cellOf(t).beginParse().loadMaybeAddress();
  } catch {
    return undefined;
  }
}

/** A content cell as its keys, undefined when it does not parse. */
function contentOf(cell: Cell): Record<string, string> | undefined {
  try {
    const c = parseTokenContent(cell);
    return c.type === 'offchain' ? { uri: c.data } : c.data;
  } catch {
    return undefined;
  }
}

function tokenInfo(type: string, content: Record<string, string>): TokenInfo {
  const info: TokenInfo = { type };
  for (const k of OWN_KEYS) if (content[k] !== undefined) info[k] = content[k];
  const extra = Object.fromEntries(EXTRA_KEYS.filter((k) => content[k] !== undefined).map((k) => [k, content[k]!]));
  if (Object.keys(extra).length > 0) info.extra = extra;
  return info;
}

/** `get_jetton_data`: (total_supply, mintable, admin_address, jetton_content, jetton_wallet_code). */
async function jettonMaster(reader: RunReader, a: Address): Promise<TokenInfo | null> {
  const st = typed(await reader.getMethod(a, 'get_jetton_data', 'after'), ['int', 'int', 'slice', 'cell', 'cell']);
  const content = st && addressOf(st[2]!) !== undefined ? contentOf(cellOf(st[3]!)) : undefined;
  return content ? tokenInfo('jetton_masters', content) : null;
}

/** `get_nft_data`: (init, index, collection_address, owner_address, individual_content). */
async function nftItem(reader: RunReader, a: Address): Promise<TokenInfo | null> {
  const st = typed(await reader.getMethod(a, 'get_nft_data', 'after'), ['int', 'int', 'slice', 'slice', 'cell']);
  if (!st) return null;
  const collection = addressOf(st[2]!);
  if (collection === undefined || addressOf(st[3]!) === undefined) return null;
  if (collection === null) {
    const content = contentOf(cellOf(st[4]!));
    return content ? tokenInfo('nft_items', content) : null;
  }
  const index: TupleItem = { type: 'int', value: intOf(st[1]!) };
  const named = typed(await reader.getMethodWith(collection, 'get_nft_address_by_index', 'before', [index]), ['slice']);
  if (!named || !addressOf(named[0]!)?.equals(a)) return null;
  const full = typed(await reader.getMethodWith(collection, 'get_nft_content', 'before', [index, { type: 'cell', cell: cellOf(st[4]!) }]), ['cell']);
  const content = full ? contentOf(cellOf(full[0]!)) : undefined;
  return content ? tokenInfo('nft_items', content) : null;
}

/** `get_collection_data`: (next_item_index, collection_content, owner_address). */
async function nftCollection(reader: RunReader, a: Address): Promise<TokenInfo | null> {
  const st = typed(await reader.getMethod(a, 'get_collection_data', 'after'), ['int', 'cell', 'slice']);
  const content = st && addressOf(st[2]!) !== undefined ? contentOf(cellOf(st[1]!)) : undefined;
  return content ? tokenInfo('nft_collections', content) : null;
}

/** Entries for `addresses` (raw; accounts the run touched that the source has no metadata for) that are token contracts after the run. */
export async function deployedTokens(addresses: readonly string[], reader: RunReader): Promise<Metadata> {
  const found = await Promise.all(
    addresses.map(async (raw) => {
      const a = Address.parseRaw(raw);
      const infos = await Promise.all([jettonMaster(reader, a), nftItem(reader, a), nftCollection(reader, a)]);
      return infos.filter((i): i is TokenInfo => i !== null);
    }),
  );
  const out: Metadata = {};
  addresses.forEach((raw, n) => {
    if (found[n]!.length > 0) out[raw] = { is_indexed: false, token_info: found[n]! };
  });
  return out;
}
