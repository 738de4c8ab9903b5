/**
 * Global ids are readable and type-prefixed (`Transaction:<base64 hash>`, `Block:<wc>:<SHARD>:<seqno>`,
 * `Account:<raw>`), the way ton-q-server prefixes them. The local part is normalised on the way in, so
 * every accepted spelling of a hash or address reaches the same loader key.
 */
import { parseAddressAny, rawUpper } from '../../model/address.js';
import { parseHash } from '../../model/hash.js';
import { badInput } from './errors.js';
import { parseShard, shardHex } from './shard.js';

export const encodeGlobalId = (typename: string, id: bigint | number | string): string => `${typename}:${id}`;

/** `wc:SHARD:seqno`, the key Block loaders use. */
export const blockKey = (b: { workchain: number; shard: string; seqno: number }): string => `${b.workchain}:${b.shard}:${b.seqno}`;

export function parseBlockKey(key: string): { workchain: number; shard: bigint; seqno: number } | null {
  const m = /^(-?\d{1,10}):([^:]+):(\d{1,10})$/.exec(key);
  if (!m) return null;
  const shard = parseShard(m[2]!);
  if (shard === null) return null;
  return { workchain: Number(m[1]), shard, seqno: Number(m[3]) };
}

function normaliseLocal(typename: string, local: string): string | null {
  switch (typename) {
    case 'Transaction':
    case 'Message':
    case 'Trace':
      return parseHash(local)?.toString('base64') ?? null;
    case 'Account':
    case 'JettonMaster':
    case 'JettonWallet':
    case 'NftCollection':
    case 'NftItem': {
      const a = parseAddressAny(local);
      return a ? rawUpper(a.address) : null;
    }
    case 'Block': {
      const b = parseBlockKey(local);
      return b ? blockKey({ workchain: b.workchain, shard: shardHex(b.shard), seqno: b.seqno }) : null;
    }
    default:
      return null;
  }
}

export function decodeGlobalId(globalId: string): { typename: string; id: string } {
  const at = globalId.indexOf(':');
  const typename = at > 0 ? globalId.slice(0, at) : '';
  const id = normaliseLocal(typename, globalId.slice(at + 1));
  if (id === null) throw badInput(`not a global id of this API: ${JSON.stringify(globalId)}`);
  return { typename, id };
}
