/** /health says 503 while the local chain runs its genesis and 200 once it is sealed; data routes wait the same way. */
import { describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { startGateway } from '../../src/gateway.js';

describe('readiness', () => {
  it('answers 503 during genesis, then 200 {"status":"ok"}', async () => {
    const early: Promise<[number, unknown, number]>[] = [];
    const base = loadConfig([], {}) as Config;
    const gw = await startGateway(
      { ...base, port: 0, quiet: true, blockInterval: 0 },
      {
        // the server listens before genesis starts, so these land while it runs
        onListening: (url) => {
          early.push(
            Promise.all([fetch(`${url}/health`), fetch(`${url}/api/v2/getMasterchainInfo`)]).then(
              async ([h, m]) => [h.status, await m.json(), m.status] as [number, unknown, number],
            ),
          );
        },
      },
    );
    try {
      const [healthStatus, masterchain, masterchainStatus] = await early[0]!;
      expect(healthStatus).toBe(503);
      expect(masterchainStatus).toBe(503);
      expect(masterchain).toMatchObject({ ok: false, code: 503 });

      const res = await fetch(`${gw.url}/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ok' });
    } finally {
      await gw.close();
    }
  });
});
