/**
 * TEP-64 token content (github.com/ton-blockchain/TEPs, text/0064-token-data-standard.md), read as toncenter's
 * C++ readers read it (ton-index-worker parse_token_data, the v2 getTokenData): unknown on-chain keys and values
 * that are not UTF-8 are dropped, image_data is base64.
 *
 *   onchain#00 data:(HashmapE 256 ^ContentData) = FullContent;   (an inline ContentData occurs on chain too)
 *   offchain#01 uri:Text = FullContent;
 *   snake#00 data:(SnakeData ~n) = ContentData;
 *   chunks#01 data:ChunkedData = ContentData;
 */
import { Dictionary, type Cell, type Slice } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import type { TokenContent } from '../../api/v2.js';

const KNOWN_KEYS = ['uri', 'name', 'description', 'image', 'image_data', 'symbol', 'decimals', 'amount_style', 'render_type'];
const KEY_BY_HASH = new Map(KNOWN_KEYS.map((k) => [sha256_sync(k).toString('hex'), k]));

/** A snake-format string: the slice's bytes, then each first ref's, recursively. */
function readSnake(s: Slice): Buffer {
  const parts: Buffer[] = [];
  let cur: Slice | undefined = s;
  while (cur) {
    parts.push(cur.loadBuffer(Math.floor(cur.remainingBits / 8)));
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : undefined;
  }
  return Buffer.concat(parts);
}

/** An on-chain value: snake (prefix 0x00) or chunked (prefix 0x01, dict of uint32 → chunk). */
function readContentValue(cell: Cell): Buffer {
  const s = cell.beginParse();
  if (s.remainingBits < 8) return readSnake(s);
  const prefix = s.loadUint(8);
  if (prefix === 0x01) {
    const chunks = s.loadDict(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    return Buffer.concat(
      chunks
        .keys()
        .sort((a, b) => a - b)
        .map((k) => readSnake(chunks.get(k)!.beginParse())),
    );
  }
  return readSnake(s);
}

const utf8 = (b: Buffer): string | undefined => {
  const s = b.toString('utf8');
  return Buffer.from(s, 'utf8').equals(b) ? s : undefined;
};

/** A content cell as `{type:"onchain",data}` or `{type:"offchain",data}` (the uri). */
export function parseTokenContent(cell: Cell): TokenContent {
  const s = cell.beginParse();
  const prefix = s.remainingBits >= 8 ? s.loadUint(8) : 0x01;
  if (prefix === 0x01) return { type: 'offchain', data: utf8(readSnake(s)) ?? '' };
  const data: Record<string, string> = {};
  const dict = s.loadDict(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  for (const [key, value] of dict) {
    const name = KEY_BY_HASH.get(key.toString('hex'));
    if (!name) continue;
    // both "^ContentData" and an inline value occur on chain
    const inner = value.bits.length === 0 && value.refs.length === 1 ? value.refs[0]! : value;
    const bytes = readContentValue(inner);
    if (name === 'image_data') data[name] = bytes.toString('base64');
    else {
      const text = utf8(bytes);
      if (text !== undefined) data[name] = text;
    }
  }
  return { type: 'onchain', data };
}
