/** Upstream mode: V2Api and V3Api answered by a toncenter (or ton-http-api + ton-indexer) over HTTP. */
import type { V2Api } from '../../api/v2.js';
import type { V3Api } from '../../api/v3.js';
import type { UpstreamConfig } from '../../config.js';
import { attachAnswers, RequestAnswers } from './answers.js';
import { UpstreamClient, type ClientOptions } from './client.js';
import { upstreamV2 } from './v2.js';
import { upstreamV3 } from './v3.js';
import { upstreamV3Other } from './v3-other.js';
import { upstreamV3Tokens } from './v3-tokens.js';
import { upstreamV3Traces } from './v3-traces.js';

export { UpstreamClient } from './client.js';

export interface Upstream {
  v2: V2Api;
  v3: V3Api;
  client: UpstreamClient;
  /** null when both upstreams answer; otherwise what is wrong, for /ready */
  check(): Promise<string | null>;
  close(): Promise<void>;
}

/** A recent real answer proves reachability without spending a request of the provider's budget on a probe. */
const FRESH_MS = 5_000;
/** Probe outcomes are reused this long, so a polling orchestrator cannot eat the rate limit. */
const PROBE_REUSE_MS = 2_000;

export function createUpstream(cfg: UpstreamConfig, tuning: Partial<ClientOptions> = {}): Upstream {
  const client = new UpstreamClient({ ...cfg, ...tuning });
  const v2 = upstreamV2(client);
  const v3: V3Api = attachAnswers(
    { ...upstreamV3(client), ...upstreamV3Tokens(client), ...upstreamV3Traces(client), ...upstreamV3Other(client) },
    new RequestAnswers(client, 'v3'),
  );
  let last: { at: number; result: Promise<string | null> } | undefined;

  const probe = async (): Promise<string | null> => {
    const failures = await Promise.all([
      v2.getMasterchainInfo().then(
        () => null,
        (e: Error) => `v2: ${e.message}`,
      ),
      v3.masterchainInfo().then(
        () => null,
        (e: Error) => `v3: ${e.message}`,
      ),
    ]);
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
