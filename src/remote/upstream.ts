/**
 * A toncenter as V2Api and V3Api over one client (pace, cache, bounds), and whether it answers: what upstream mode
 * serves and what a fork reads the network's accounts and history through.
 */
import { withAnswers } from '../api/raw-answer.js';
import type { ApiName } from '../api/options.js';
import type { V2Api } from '../api/v2.js';
import type { V3Api } from '../api/v3/index.js';
import { RequestAnswers } from './answers.js';
import { UpstreamClient, type ClientOptions } from './client.js';
import type { UpstreamConfig } from './options.js';
import { upstreamV2 } from './v2.js';
import { upstreamV3 } from './v3.js';

export interface Upstream {
  v2: V2Api;
  v3: V3Api;
  client: UpstreamClient;
  /** null when the upstreams answer; otherwise what is wrong, for /ready */
  check(): Promise<string | null>;
  close(): Promise<void>;
}

/** A recent real answer proves reachability without spending a request of the provider's budget on a probe. */
const FRESH_MS = 5_000;
/** Probe outcomes are reused this long, so a polling orchestrator cannot eat the rate limit. */
const PROBE_REUSE_MS = 2_000;

/** The clients over one UpstreamClient; `check` probes only the APIs in `probed`. */
export function createUpstream(cfg: UpstreamConfig, tuning: Partial<ClientOptions> = {}, probed: readonly ApiName[] = ['v2', 'v3']): Upstream {
  const client = new UpstreamClient({ ...cfg, ...tuning });
  const v2 = upstreamV2(client);
  const v3: V3Api = withAnswers(upstreamV3(client), new RequestAnswers(client, 'v3'));
  let last: { at: number; result: Promise<string | null> } | undefined;

  const probes: Record<ApiName, () => Promise<unknown>> = { v2: () => v2.getMasterchainInfo(), v3: () => v3.masterchainInfo() };
  const probe = async (): Promise<string | null> => {
    const failures = await Promise.all(
      probed.map((api) =>
        probes[api]().then(
          () => null,
          (e: Error) => `${api}: ${e.message}`,
        ),
      ),
    );
    const bad = failures.filter((f): f is string => f !== null);
    return bad.length ? bad.join('; ') : null;
  };

  return {
    v2,
    v3,
    client,
    check() {
      const now = performance.now();
      if (client.stats.lastFailure === '' && now - client.stats.lastOkAt < FRESH_MS) return Promise.resolve(null);
      if (!last || now - last.at > PROBE_REUSE_MS) last = { at: now, result: probe() };
      return last.result;
    },
    close: () => client.close(),
  };
}
