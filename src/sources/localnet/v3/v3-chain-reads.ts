/**
 * What the newer v3 routes read from the local chain besides the contract index: config params as cells, and
 * get-methods run on an account's state as of the last sealed masterchain block (the way the reference's
 * worker runs them), with results read by the contract index's typed stack reader.
 */
import { Address, Cell, Dictionary } from '@ton/core';
import type { StackArg } from '../../../api/v2.js';
import { fromStd, Stack } from '../../../model/contract-data.js';
import type { LocalV3Context } from './v3-context.js';

/**
 * Config param `id` of the chain as of its last sealed masterchain block; undefined when unset. Read from the
 * chain's parsed config when the source holds one, so a read costs no BoC serialisation or parse.
 */
export async function configParam(ctx: LocalV3Context, id: number): Promise<Cell | undefined> {
  const held = ctx.heldConfigParam(id);
  if (held !== null) return held;
  const info = await ctx.v2.getConfigParam({ configId: id, seqno: ctx.store.lastMc.seqno });
  return info.config.bytes ? Cell.fromBase64(info.config.bytes) : undefined;
}

/** The elector's address (config param 1). */
export async function electorAddress(ctx: LocalV3Context): Promise<Address | undefined> {
  const p1 = await configParam(ctx, 1);
  return p1 ? new Address(-1, p1.beginParse().loadBuffer(32)) : undefined;
}

/** Whether the account exists and holds code (an uninit or frozen one answers no get-method). */
export function isActive(ctx: LocalV3Context, address: Address): boolean {
  return ctx.latestState(address)?.account?.storage.state.type === 'active';
}

/**
 * A get-method's result stack on the account's state as of masterchain block `seqno` (the last sealed one when
 * not given), or null when the account is not active then or the method does not exit 0 or 1.
 */
export async function runGet(ctx: LocalV3Context, address: Address, method: string, stack: StackArg[] = [], seqno?: number): Promise<Stack | null> {
  const active = seqno === undefined ? isActive(ctx, address) : ctx.store.accountState(address, seqno)?.shardAccount.account?.storage.state.type === 'active';
  if (!active) return null;
  const r = await ctx.v2.runGetMethodStd({ address, method, stack, seqno: seqno ?? ctx.store.lastMc.seqno });
  if (r.exit_code !== 0 && r.exit_code !== 1) return null;
  return new Stack(r.stack.map(fromStd));
}

/** Upper-case hex of a 256-bit integer (keys and ADNL addresses as the validator routes print them). */
export const hex256 = (v: bigint): string => v.toString(16).padStart(64, '0').toUpperCase();

const UNIT = {
  serialize: () => {
    throw new Error('read only');
  },
  parse: () => true,
};

/**
 * Accounts suspended by config param 44 (`suspended_address_list#00 addresses:(HashmapE 288 Unit)
 * suspended_until:uint32`, the list a node's executor skips with reason `suspended`) as raw uppercase forms,
 * while `suspended_until` is ahead of the last sealed block; the v3 `suspended` member of account answers.
 */
export async function suspendedAccounts(ctx: LocalV3Context): Promise<ReadonlySet<string>> {
  const p44 = await configParam(ctx, 44);
  if (!p44) return NONE;
  let parsed = suspendedLists.get(p44);
  if (!parsed) suspendedLists.set(p44, (parsed = parseSuspended(p44)));
  return parsed.until > ctx.store.lastMc.genUtime ? parsed.addresses : NONE;
}

const NONE: ReadonlySet<string> = new Set();

/** The `suspended` member as toncenter prints it: omit-empty, so `true` or absent, never `false` (toncenter-newer.md §5). */
export const suspendedMember = (suspended: ReadonlySet<string>, raw: string): { suspended?: true } => (suspended.has(raw) ? { suspended: true } : {});

/** Param 44 parsed once per cell (a config's cells live as long as the config holds them). */
const suspendedLists = new WeakMap<Cell, { addresses: ReadonlySet<string>; until: number }>();

function parseSuspended(p44: Cell): { addresses: ReadonlySet<string>; until: number } {
  const s = p44.beginParse();
  if (s.loadUint(8) !== 0) return { addresses: NONE, until: 0 };
  const list = s.loadDict(Dictionary.Keys.BigUint(288), UNIT);
  const until = s.loadUint(32);
  const addresses = new Set<string>();
  for (const key of list.keys()) {
    const wc = Number(BigInt.asIntN(32, key >> 256n));
    addresses.add(`${wc}:${hex256(key & ((1n << 256n) - 1n))}`);
  }
  return { addresses, until };
}
