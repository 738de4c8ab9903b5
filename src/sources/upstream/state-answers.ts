/**
 * Jetton master rows from account states (api/state-answers.ts), for upstream mode: `get_jetton_data` runs on
 * the state's code and data on the read lane of the emulator worker pool (bounded in time and memory), so a
 * page that shows jetton content asks the upstream for the masters' states (which it can fold into the
 * /accountStates call it makes anyway) instead of /jetton/masters. The row is built by the same decoder as
 * the local chain's index (the reference indexer's /jetton/masters): supply, mintable, admin, the TEP-64
 * content read from the chain (never the indexer's off-chain token_info), the wallet code hash; code and data
 * hashes and the last transaction lt are the state row's.
 *
 * The method runs with sandbox's bundled config at the current time, not the network's config (reading it
 * would cost a call); a master's get_jetton_data reads its own data, and one that fails here is asked of the
 * indexer instead, as is a master whose code refers to library cells (they are not loaded). Rows are kept for
 * the account TTL, as the state they come from is, bounded in number; the /nft/items rows the graph's answers
 * bring are kept past it (bounded too), fresh within it.
 */
import { Address, Cell, getMethodId, parseTuple } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import type { Shared } from '../../api/shared-answers.js';
import type { StateAnswers } from '../../api/state-answers.js';
import type { AccountStateFull } from '../../api/v3/accounts.js';
import type { JettonMaster } from '../../api/v3/jettons.js';
import type { NftItem } from '../../api/v3/nfts.js';
import { tupleGetStack } from '../../model/v3/contract-info.js';
import { jettonMasterData, Stack, type Item } from '../../model/contract-data.js';
import { libraryRefs } from '../../engine/account-loader.js';
import type { LazyExecutor } from './emulate.js';
import { currentLedger } from '../../remote/ledger.js';

const GET_JETTON_DATA = getMethodId('get_jetton_data');
/** gas of one run: a getter reads the data cell, far below this */
const GAS_LIMIT = 1_000_000n;
/** master rows kept at once */
export const STATE_ANSWERS_MAX_ROWS = 10_000;

export function upstreamStateAnswers(executor: LazyExecutor, ttlMs: number, keepItems: boolean): StateAnswers {
  /** by raw upper address, in insertion order */
  const rows = new Map<string, { row: JettonMaster; expires: number }>();

  const items = new Map<string, { row: Shared<NftItem>; expires: number }>();

  return {
    cachedJettonMaster: (address) => fresh(rows, address),

    cachedNftItem(address) {
      const e = items.get(address);
      return e && { row: e.row, fresh: e.expires > performance.now() };
    },

    keepNftItems(list) {
      // kept past the TTL, for what of an item never changes
      if (keepItems) for (const row of list) keep(items, row.address, row, Math.max(ttlMs, 0), true);
    },

    async jettonMaster(state: Shared<AccountStateFull>) {
      if (state.status !== 'active' || !state.code_boc || !state.data_boc || !state.code_hash || !state.data_hash || !state.last_transaction_lt) return null;
      // the same state as a kept row's: its answer, without running the method again
      const kept = rows.get(state.address)?.row;
      if (kept && kept.code_hash === state.code_hash && kept.data_hash === state.data_hash && kept.last_transaction_lt === state.last_transaction_lt) return kept;
      let code: Cell, data: Cell;
      try {
        code = Cell.fromBase64(state.code_boc);
        data = Cell.fromBase64(state.data_boc);
      } catch {
        // a BoC that does not decode: the indexer's row instead
        return null;
      }
      if (libraryRefs([code, data]).length > 0) return null;
      const res = await executor
        .runGetMethod({
          code,
          data,
          methodId: GET_JETTON_DATA,
          stack: [],
          config: defaultConfig,
          verbosity: 'short',
          address: Address.parseRaw(state.address),
          unixTime: Math.floor(Date.now() / 1000),
          balance: BigInt(state.balance ?? '0'),
          randomSeed: Buffer.alloc(32),
          gasLimit: GAS_LIMIT,
          debugEnabled: false,
        })
        .catch(() => null);
      if (!res?.output.success || (res.output.vm_exit_code !== 0 && res.output.vm_exit_code !== 1)) return null;
      let master: ReturnType<typeof jettonMasterData>;
      try {
        master = jettonMasterData(new Stack([...tupleGetStack(parseTuple(Cell.fromBase64(res.output.stack)))] as Item[]));
      } catch {
        return null;
      }
      const row: JettonMaster = {
        address: state.address,
        total_supply: master.totalSupply.toString(),
        mintable: master.mintable,
        admin_address: master.admin,
        jetton_content: master.content,
        jetton_wallet_code_hash: master.walletCodeHash,
        code_hash: state.code_hash,
        data_hash: state.data_hash,
        last_transaction_lt: state.last_transaction_lt,
      };
      keep(rows, row.address, row, ttlMs);
      return row;
    },

    prepare() {
      // the worker pool boots once (seconds on a busy machine), overlapping the calls the page waits for
      executor.warm().catch(() => {});
    },

    hurried: () => currentLedger()?.deadline !== undefined,
  };
}

/** Keeps a row for `ttlMs` (or, `always`, past it) under its address, the oldest dropped past STATE_ANSWERS_MAX_ROWS. */
function keep<T>(rows: Map<string, { row: T; expires: number }>, address: string, row: T, ttlMs: number, always = false): void {
  if (ttlMs <= 0 && !always) return;
  rows.delete(address);
  rows.set(address, { row, expires: performance.now() + ttlMs });
  while (rows.size > STATE_ANSWERS_MAX_ROWS) rows.delete(rows.keys().next().value!);
}

/** A kept row while its time lasts. */
function fresh<T>(rows: Map<string, { row: T; expires: number }>, address: string): T | undefined {
  const e = rows.get(address);
  if (!e) return undefined;
  if (e.expires > performance.now()) return e.row;
  rows.delete(address);
  return undefined;
}
