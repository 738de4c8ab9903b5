/**
 * /api/v3/acton over the local chain (toncenter-newer.md §8, a feature branch): the chain's own catalog
 * (v3-acton-catalog.ts) listed, bodies decoded as its contracts declare them, getters run on an account's state at
 * a masterchain block with named arguments and decoded by field. Every answer and error names the catalog's revision.
 */
import { Address, beginCell, Cell, CellType, getMethodId } from '@ton/core';
import { ApiError } from '../../../api/errors.js';
import {
  withCatalogRevision,
  type ActonApi,
  type ActonContractsParams,
  type ActonContractsResponse,
  type ActonDecodeParams,
  type ActonDecodeResponse,
  type ActonRunParams,
  type ActonRunResponse,
  type ActonSnapshot,
  type ActonStackValue,
} from '../../../api/v3/acton.js';
import { bocBytes } from '../../../api/v3/body.js';
import type { Shared } from '../../../api/shared-answers.js';
import type { StackArg, StdStackEntry } from '../../../api/v2.js';
import { parseAddressAny, rawUpper } from '../../../model/address.js';
import { parseHash } from '../../../model/hash.js';
import { MESSAGE_LIMITS } from '../../../model/limits.js';
import { accountStatusOf, codeOf, dataOf } from '../../../model/v3/index.js';
import { CATALOG, CATALOG_REVISION, contractOf, getMethodOf, ResultReader, toJson, type CatalogEntry } from './v3-acton-catalog.js';
import type { LocalV3Context } from './v3-context.js';

const NOT_IN_CATALOG = 'contract is not in the catalog';

/** Refusals name the catalog they were judged against, as answers do. */
const refuse = (status: number, message: string): ApiError => withCatalogRevision(new ApiError(status, message), CATALOG_REVISION);

const byHash = (h: Buffer): CatalogEntry | undefined => CATALOG.find((e) => e.codeHash.equals(h));

function stackValue(e: Shared<StdStackEntry>): ActonStackValue {
  switch (e['@type']) {
    case 'tvm.stackEntryNumber':
      return { type: 'int', value: e.number.number };
    case 'tvm.stackEntryCell':
      return { type: 'cell', value: e.cell.bytes };
    case 'tvm.stackEntrySlice':
      return { type: 'slice', value: e.slice.bytes };
    case 'tvm.stackEntryTuple':
      return { type: 'tuple', value: e.tuple.elements.map(stackValue) };
    case 'tvm.stackEntryList':
      // TVM null travels as an empty list
      return e.list.elements.length === 0 ? { type: 'null' } : { type: 'tuple', value: e.list.elements.map(stackValue) };
    default:
      throw new Error('unsupported stack entry');
  }
}

/** A named argument as the getter's parameter type takes it. */
function argOf(name: string, type: string, v: unknown): StackArg {
  const bad = () => refuse(422, `args.${name}: not a valid ${type}`);
  switch (type) {
    case 'int': {
      if (typeof v === 'number' && Number.isSafeInteger(v)) return { type: 'int', value: BigInt(v) };
      if (typeof v === 'string' && /^-?\d{1,78}$/.test(v)) return { type: 'int', value: BigInt(v) };
      throw bad();
    }
    case 'address': {
      const a = typeof v === 'string' ? parseAddressAny(v) : null;
      if (!a) throw bad();
      return { type: 'slice', boc: beginCell().storeAddress(a.address).endCell().toBoc() };
    }
    default: {
      const boc = typeof v === 'string' ? bocBytes(v, `args.${name}`, MESSAGE_LIMITS) : undefined;
      if (!boc) throw bad();
      return { type: 'cell', boc };
    }
  }
}

export function localActon(ctx: LocalV3Context): ActonApi {
  return {
    async actonContracts(p: ActonContractsParams): Promise<ActonContractsResponse> {
      const selected = !!(p.codeHash?.length || p.catalogId?.length);
      const entries = selected ? CATALOG.filter((e) => p.catalogId?.includes(e.id) || p.codeHash?.some((h) => h.equals(e.codeHash))) : CATALOG;
      const offset = p.offset ?? 0;
      const limit = p.limit ?? entries.length;
      const contracts = entries.slice(offset, offset + limit).map((e) => contractOf(e, selected));
      return withCatalogRevision({ contracts, total: entries.length, limit, offset }, CATALOG_REVISION);
    },

    async actonDecode(p: ActonDecodeParams): Promise<ActonDecodeResponse> {
      let entry: CatalogEntry | undefined;
      if (p.catalogId !== undefined) entry = CATALOG.find((e) => e.id === p.catalogId);
      else {
        const h = parseHash(p.codeHash!);
        if (!h) throw refuse(422, 'code_hash must be a 32-byte hash in hex, base64 or base64url');
        entry = byHash(h);
      }
      if (!entry) throw refuse(404, NOT_IN_CATALOG);
      const types = entry.bodies[p.direction];
      if (!types?.length) throw refuse(422, `${entry.id} declares no ${p.direction} type`);
      const boc = bocBytes(p.body, 'body', MESSAGE_LIMITS);
      if (!boc) throw refuse(422, 'body is not a base64 BOC');
      const cell = Cell.fromBoc(boc)[0]!;
      const op = cell.bits.length >= 32 ? cell.beginParse().preloadUint(32) : undefined;
      const type = types.length === 1 && types[0]!.op === undefined ? types[0]! : types.find((t) => t.op === op);
      if (!type) throw refuse(422, `no ${p.direction} type of ${entry.id} starts with opcode 0x${(op ?? 0).toString(16).padStart(8, '0')}`);
      let decoded: unknown;
      try {
        decoded = toJson(type.decode(cell.beginParse()));
      } catch (e) {
        throw refuse(422, `body does not decode as ${type.name}: ${(e as Error).message}`);
      }
      return withCatalogRevision({ catalog_id: entry.id, direction: p.direction, type: { name: type.name }, decoded }, CATALOG_REVISION);
    },

    async actonRunGetMethod(p: ActonRunParams): Promise<ActonRunResponse> {
      const parsed = parseAddressAny(p.address);
      if (!parsed) throw refuse(422, 'address must be a TON address');
      const address = parsed.address;
      const store = ctx.store;
      const seqno = p.seqno ?? store.lastMc.seqno;
      if (!store.mcBlock(seqno)) throw refuse(404, `masterchain block ${seqno} not found`);
      const state = store.accountState(address, seqno);
      const account = state?.shardAccount.account ?? null;
      const code = codeOf(account);
      // a library reference's code is the library the cell names
      const library = code?.type === CellType.Library ? code.beginParse(true).skip(8).loadBuffer(32) : undefined;
      const entry = code ? byHash(library ?? code.hash()) : undefined;
      if (!entry) throw refuse(404, NOT_IN_CATALOG);
      const numeric = /^-?\d+$/.test(p.method) ? Number(p.method) : undefined;
      const getter = entry.getters.find((g) => g.name === p.method || getMethodId(g.name) === numeric);
      if (!getter) throw refuse(404, `${entry.id} declares no getter ${p.method}`);
      const args = p.args ?? {};
      const unknown = Object.keys(args).find((k) => !getter.parameters.some((q) => q.name === k));
      if (unknown !== undefined) throw refuse(422, `args.${unknown}: ${getter.name} takes no such argument`);
      const stack = getter.parameters.map((q) => {
        if (!(q.name in args)) throw refuse(422, `args.${q.name} is required`);
        return argOf(q.name, q.type, args[q.name]);
      });
      const r = await ctx.v2.runGetMethodStd({ address, method: getter.name, stack, seqno });
      let values: ActonStackValue[] = [];
      let stackError: string | undefined;
      try {
        values = r.stack.map(stackValue);
      } catch (e) {
        stackError = (e as Error).message;
      }
      const success = r.exit_code === 0 || r.exit_code === 1;
      let decoded: unknown = null;
      let decodeError: string | undefined;
      if (success && stackError === undefined) {
        try {
          decoded = toJson(getter.decode(new ResultReader(values)));
        } catch (e) {
          decodeError = (e as Error).message;
        }
      }
      const snapshot: ActonSnapshot = {
        address: rawUpper(address),
        account_status: accountStatusOf(account),
        account_state_hash: state ? Cell.fromBase64(state.record.boc).refs[0]!.hash().toString('base64') : null,
        code_hash: code ? code.hash().toString('base64') : null,
        ...(library ? { implementation_hash: library.toString('base64') } : {}),
        data_hash: dataOf(account)?.hash().toString('base64') ?? null,
        last_transaction_hash: state && state.shardAccount.lastTransactionLt > 0n ? Buffer.from(state.shardAccount.lastTransactionHash.toString(16).padStart(64, '0'), 'hex').toString('base64') : null,
        last_transaction_lt: state && state.shardAccount.lastTransactionLt > 0n ? state.shardAccount.lastTransactionLt.toString() : null,
        seqno,
      };
      return withCatalogRevision(
        {
          stack: values,
          // the v2 answer is shared read-only; this one owns its copy
          raw_stack: structuredClone(r.stack) as unknown as Record<string, unknown>[],
          gas_used: String(r.gas_used),
          exit_code: r.exit_code,
          ...(stackError !== undefined ? { stack_error: stackError } : {}),
          snapshot,
          catalog_id: entry.id,
          method: getMethodOf(getter),
          identification: library ? 'library_reference' : 'exact_code_hash',
          success,
          decoded,
          ...(decodeError !== undefined ? { decode_error: decodeError } : {}),
        },
        CATALOG_REVISION,
      );
    },
  };
}
