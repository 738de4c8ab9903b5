/** v2 transaction endpoints over the local chain (v2.md §3.4): a block's transactions, an account's, and locating one by message. */
import type { Shared, SharedAnswers } from '../../../api/shared-answers.js';
import { Address } from '@ton/core';
import { ApiError } from '../../../api/errors.js';
import type * as v2 from '../../../api/v2.js';
import { rawLower } from '../../../model/address.js';
import { hashB64 } from '../../../model/hash.js';
import { blockIdExt } from '../chain/blocks.js';
import { compareAccountLt, type BlockRecord, type TxRecord } from '../chain/store.js';
import { type LocalV2Context, LT_NOT_IN_DB, TX_HASH_MISMATCH, TX_NOT_FOUND, ZERO_HASH } from './v2-context.js';

export function localTransactions(ctx: LocalV2Context): SharedAnswers<v2.TransactionsApi> {
  function blockPage(p: v2.BlockTransactionsParams): { block: BlockRecord; page: TxRecord[]; incomplete: boolean } {
    const block = ctx.blockByRef(p);
    let txs = ctx.store.blockTxs(block);
    if (p.after) {
      const after = { account: new Address(block.workchain, p.after.accountHash), lt: p.after.lt };
      txs = txs.filter((t) => compareAccountLt(t, after) > 0);
    }
    return { block, page: txs.slice(0, p.count), incomplete: txs.length > p.count };
  }

  /** Newest first from `from` (inclusive) or the last transaction, stopping at lt <= toLt. */
  function accountPage(p: v2.TransactionsParams): { page: TxRecord[]; next?: TxRecord } {
    const list = ctx.store.accountTransactions(p.address);
    let start = list.length - 1;
    if (p.from) {
      const lt = p.from.lt;
      start = list.findIndex((t) => t.lt === lt);
      if (start < 0) throw new ApiError(500, LT_NOT_IN_DB);
      if (!Buffer.from(list[start]!.hash, 'hex').equals(p.from.hash)) throw new ApiError(500, TX_HASH_MISMATCH);
    }
    const page: TxRecord[] = [];
    for (let i = start; i >= 0 && page.length < p.limit; i--) {
      const t = list[i]!;
      if (p.toLt > 0n && t.lt <= p.toLt) break;
      page.push(t);
    }
    return { page };
  }

  /** On a fork, where the account's local history starts from (undefined on a plain chain). */
  const forkedFrom = (address: Address) => ctx.chain.fork?.lastTxAtFork(ctx.store, address);

  /**
   * An account's transactions, newest first: the local ones, then (on a fork) the network's from before the
   * fork block, as one list: a page that runs past the fork point continues with the upstream's, and a page
   * asked from a transaction older than the fork point is the upstream's page.
   */
  async function accountTransactions<U>(p: v2.TransactionsParams, older: (q: v2.TransactionsParams) => Promise<U>): Promise<{ local: TxRecord[]; upstream?: U }> {
    const origin = forkedFrom(p.address);
    if (origin && p.from && p.from.lt <= origin.lt) return { local: [], upstream: await older(p) };
    const { page } = accountPage(p);
    const rest = p.limit - page.length;
    if (!origin || rest <= 0 || (p.toLt > 0n && origin.lt <= p.toLt)) return { local: page };
    return { local: page, upstream: await older({ ...p, limit: rest, from: origin }) };
  }

  function locate(p: v2.LocateTxParams, side: 'dest' | 'source'): v2.ExtTransaction {
    const m = ctx.store.messageByRoute(p.source, p.destination, p.createdLt);
    const t = ctx.sealedTx(side === 'dest' ? m?.destTxHash : m?.sourceTxHash);
    if (!t) throw new ApiError(404, TX_NOT_FOUND);
    return ctx.ext(t);
  }

  return {
    async getBlockTransactions(p: v2.BlockTransactionsParams): Promise<v2.BlockTransactions> {
      const { block, page, incomplete } = blockPage(p);
      return {
        '@type': 'blocks.transactions',
        id: blockIdExt(block),
        req_count: p.count,
        incomplete,
        transactions: page.map((t) => ({
          '@type': 'blocks.shortTxId',
          mode: 135,
          account: rawLower(t.account),
          lt: t.lt.toString(),
          hash: hashB64(Buffer.from(t.hash, 'hex')),
        })),
      };
    },

    async getBlockTransactionsExt(p: v2.BlockTransactionsParams): Promise<v2.BlockTransactionsExt> {
      const { block, page, incomplete } = blockPage(p);
      return {
        '@type': 'blocks.transactionsExt',
        id: blockIdExt(block),
        req_count: p.count,
        incomplete,
        transactions: page.map((t) => ctx.rawExt(t)),
      };
    },

    async getTransactions(p: v2.TransactionsParams): Promise<readonly Shared<v2.ExtTransaction>[]> {
      const { local, upstream } = await accountTransactions(p, (q) => ctx.chain.fork!.upstream.v2.getTransactions(q));
      return [...local.map((t) => ctx.ext(t)), ...(upstream ?? [])];
    },

    async getTransactionsStd(p: v2.TransactionsParams): Promise<Shared<v2.TransactionsStd>> {
      const { local, upstream } = await accountTransactions(p, (q) => ctx.chain.fork!.upstream.v2.getTransactionsStd(q));
      const last = local[local.length - 1];
      return {
        '@type': 'raw.transactions',
        transactions: [...local.map((t) => ctx.raw(t)), ...(upstream?.transactions ?? [])],
        // where the next page starts: the upstream's word when its page ended the list
        previous_transaction_id: upstream?.previous_transaction_id ?? {
          '@type': 'internal.transactionId',
          lt: (last?.tx.prevTransactionLt ?? 0n).toString(),
          hash: last ? hashB64(last.tx.prevTransactionHash) : ZERO_HASH,
        },
      };
    },

    async tryLocateTx(p: v2.LocateTxParams): Promise<v2.ExtTransaction> {
      return locate(p, 'dest');
    },

    async tryLocateResultTx(p: v2.LocateTxParams): Promise<v2.ExtTransaction> {
      return locate(p, 'dest');
    },

    async tryLocateSourceTx(p: v2.LocateTxParams): Promise<v2.ExtTransaction> {
      return locate(p, 'source');
    },
  };
}
