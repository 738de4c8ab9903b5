/**
 * The two tip sources: the local chain's seal event (its block producer drives the stream) and, in upstream
 * mode, one masterchainInfo poll shared by every subscriber, backing off while the upstream fails.
 */
import type { Block, V3Api } from '../api/v3.js';
import type { ChainStore } from '../sources/localnet/store.js';
import { BlockFeed, backoffMs, type ChainEvents, type EventLog, type TipSource } from './feed.js';

export function sealTip(store: ChainStore): TipSource {
  return {
    pollMs: null,
    async start(onTip) {
      const stop = store.onSeal((mc) => onTip(mc.seqno));
      return { tip: store.lastMc.seqno, stop };
    },
  };
}

export function pollTip(v3: V3Api, pollMs: number, log?: EventLog): TipSource {
  return {
    pollMs,
    async start(onTip) {
      let stopped = false;
      let failures = 0;
      let timer: NodeJS.Timeout | undefined;
      const poll = async (): Promise<Block | undefined> => {
        try {
          const { last } = await v3.masterchainInfo();
          failures = 0;
          return last;
        } catch (err) {
          failures++;
          log?.warn({ err, failures }, 'subscriptions: polling masterchainInfo failed');
          return undefined;
        }
      };
      // polls never overlap: the next one is scheduled when the previous has answered
      const schedule = (): void => {
        if (stopped) return;
        timer = setTimeout(async () => {
          const last = await poll();
          if (last && !stopped) onTip(last.seqno, last);
          schedule();
        }, failures ? backoffMs(pollMs, failures) : pollMs);
        timer.unref();
      };
      const first = await poll();
      schedule();
      return {
        tip: first?.seqno,
        stop: () => {
          stopped = true;
          clearTimeout(timer);
        },
      };
    },
  };
}

export const localChainEvents = (store: ChainStore, v3: V3Api, log?: EventLog): ChainEvents => new BlockFeed(sealTip(store), v3, log);

export const upstreamChainEvents = (v3: V3Api, pollMs: number, log?: EventLog): ChainEvents => new BlockFeed(pollTip(v3, pollMs, log), v3, log);
