/**
 * The Emulate API over the local chain: worlds are the store's sealed states at a masterchain block (pending
 * transactions are not part of any block, as on the network), cascades run on the chain's emulation lane of
 * emulator workers and their get-methods on its read lane (every call bounded in time and memory, a trap or
 * crash ends only that worker), emulations take turns (engine/emulation-queue.ts), and address_book/metadata
 * come from the v3 context's own builders. Nothing here writes: no block, no pending entry, no stored state, no
 * lt or seqno advance.
 */
import type { Address } from '@ton/core';
import type { IExecutor } from '@ton/sandbox';
import type { CascadeExecutor } from '../../model/emulate/cascade.js';
import { EmulateError, type EmulateApi, type EmulateBounds, type EmulationWorld, type EmulationWorlds } from '../../api/emulate.js';
import { emulateService } from '../../model/emulate/service.js';
import type { Chain } from './chain/chain.js';
import { DEFAULT_EMULATE_TIMEOUT_MS, EMULATION_BOUNDS, executorFailureError } from '../../engine/emulation.js';
import { EmulationQueue } from '../../engine/emulation-queue.js';
import type { LocalV3Context } from './v3/v3-context.js';

export function localWorlds(chain: Chain): EmulationWorlds {
  return {
    async at(mcSeqno?: number): Promise<EmulationWorld> {
      const store = chain.store;
      const last = store.lastMc;
      if (mcSeqno !== undefined && mcSeqno > last.seqno) throw new EmulateError(500, 'mc block seqno is too new');
      const mc = mcSeqno === undefined ? last : store.mcBlock(mcSeqno);
      if (!mc) throw new EmulateError(500, `failed to fetch mc block ${mcSeqno}: not found`);
      const latest = mc.seqno === last.seqno;
      const bc = chain.bc;
      return {
        mcSeqno: mc.seqno,
        // a sealed block's states never change (a reset chain's block of the same seqno has another hash)
        key: `local:${mc.seqno}:${mc.rootHash.toString('hex')}`,
        // the latest block runs at the wall clock (as the next message on the chain would), an older one at its own time
        utime: latest ? Math.max(mc.genUtime, Math.floor(Date.now() / 1000)) : mc.genUtime,
        // past every lt the chain has used, so the emulated transactions follow each account's last one
        lt: bc.lt > mc.endLt ? bc.lt : mc.endLt,
        config: bc.configBase64,
        libs: bc.libs ?? null,
        prevBlocks: bc.prevBlocks,
        account: async (address: Address) => store.accountState(address, mc.seqno)?.shardAccount ?? null,
      };
    },
  };
}

/** Cascades on the emulation lane, their get-methods (the classifier's, balance changes) on the read lane. */
function emulationExecutor(chain: Chain): IExecutor & Partial<CascadeExecutor> {
  const reads = chain.reads;
  const lane = chain.emulations;
  return {
    runTransaction: (args) => lane.runTransaction(args),
    runTickTock: (args) => lane.runTickTock(args),
    runGetMethod: (args) => reads.runGetMethod(args),
    ...(lane.runCascade ? { runCascade: lane.runCascade.bind(lane) } : {}),
  };
}

export function localEmulateApi(chain: Chain, v3: LocalV3Context, timeoutMs = DEFAULT_EMULATE_TIMEOUT_MS, bounds: EmulateBounds = EMULATION_BOUNDS): EmulateApi {
  return emulateService({
    worlds: localWorlds(chain),
    executor: emulationExecutor(chain),
    enricher: { book: (a) => v3.book(a, {}), metadata: (a) => v3.metadata(a, {}) },
    timeoutMs,
    maxAnswer: { bytes: bounds.maxAnswerBytes, cells: bounds.maxAnswerCells },
    admission: new EmulationQueue(bounds),
    failure: executorFailureError,
  });
}
