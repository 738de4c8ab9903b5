/** v2 send endpoints over the local chain (v2.md §3.5): external messages to the chain, and fee estimates on an emulated copy. */
import {
  beginCell,
  Cell,
  external,
  loadTransaction,
  storeMessage,
  storeShardAccount,
  type ShardAccount,
  type StateInit,
} from '@ton/core';
import { createEmptyShardAccount } from '@ton/sandbox';
import { ApiError } from '../../../api/errors.js';
import type * as v2 from '../../../api/v2.js';
import { hashB64 } from '../../../model/hash.js';
import { normalizedHash } from '../../../model/message.js';
import { EXT_NOT_ACCEPTED } from '../chain/chain.js';
import { type LocalV2Context, FEE_PROBE_BALANCE, cloneShardAccount, emulated } from './v2-context.js';

export function localSend(ctx: LocalV2Context): v2.SendApi {
  return {
    async sendBoc(p: { boc: Buffer }): Promise<v2.Ok> {
      const { cell } = ctx.parseExternal(p.boc);
      await ctx.chain.send(cell);
      return { '@type': 'ok' };
    },

    async sendBocReturnHash(p: { boc: Buffer }): Promise<v2.ExtMessageInfo> {
      const { cell, msg } = ctx.parseExternal(p.boc);
      await ctx.chain.send(cell);
      return { '@type': 'raw.extMessageInfo', hash: hashB64(cell.hash()), hash_norm: hashB64(normalizedHash(msg, cell)) };
    },

    async estimateFee(p: v2.EstimateFeeParams): Promise<v2.QueryFees> {
      const parse = (what: string, b: Buffer): Cell => {
        try {
          return Cell.fromBoc(b)[0]!;
        } catch (e) {
          throw new ApiError(422, `failed to parse ${what}: ${(e as Error).message}`);
        }
      };
      const body = parse('body', p.body);
      const init: StateInit | undefined =
        p.initCode?.length || p.initData?.length
          ? { code: p.initCode?.length ? parse('init_code', p.initCode) : undefined, data: p.initData?.length ? parse('init_data', p.initData) : undefined }
          : undefined;
      const message = beginCell().store(storeMessage(external({ to: p.address, init, body }))).endCell();

      const a = ctx.account(p.address);
      const sa = a.sa ?? createEmptyShardAccount(p.address);
      // fees do not depend on the balance, but an empty account could not pay for the gas it is asked to price
      const copy: ShardAccount = cloneShardAccount(sa);
      if (copy.account && copy.account.storage.balance.coins < FEE_PROBE_BALANCE) copy.account.storage.balance.coins = FEE_PROBE_BALANCE;
      const bc = ctx.chain.bc;
      const res = await emulated(ctx.chain.reads.runTransaction({
        message,
        shardAccount: beginCell().store(storeShardAccount(copy)).endCell().toBoc().toString('base64'),
        // tonlib's query.estimateFees prices storage up to the sync time of the state it read (the masterchain block's
        // gen_utime), not the wall clock: two estimates against one block agree to the nanoton
        now: a.mc.genUtime,
        lt: bc.lt + 1_000_000n,
        config: bc.configBase64,
        libs: bc.libs ?? null,
        verbosity: 'short',
        randomSeed: Buffer.alloc(32),
        ignoreChksig: p.ignoreChksig,
        debugEnabled: false,
        prevBlocksInfo: bc.prevBlocks,
      }), 'fee estimate');
      if (!res.result.success) throw new ApiError(500, `${EXT_NOT_ACCEPTED}\n${res.result.error}`);
      const tx = loadTransaction(Cell.fromBase64(res.result.transaction).beginParse());
      const d = tx.description;
      if (d.type !== 'generic') throw new ApiError(500, `LITE_SERVER_UNKNOWN: unexpected ${d.type} transaction`);
      const storage = d.storagePhase?.storageFeesCollected ?? 0n;
      const gas = d.computePhase.type === 'vm' ? d.computePhase.gasFees : 0n;
      const fwd = d.actionPhase?.totalFwdFees ?? 0n;
      const actionFees = d.actionPhase?.totalActionFees ?? 0n;
      const inFwd = tx.totalFees.coins - storage - gas - actionFees;
      return {
        '@type': 'query.fees',
        source_fees: {
          '@type': 'fees',
          in_fwd_fee: Number(inFwd > 0n ? inFwd : 0n),
          storage_fee: Number(storage),
          gas_fee: Number(gas),
          fwd_fee: Number(fwd),
        },
        destination_fees: [],
      };
    },
  };
}
