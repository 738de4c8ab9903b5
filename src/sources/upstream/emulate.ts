/**
 * The Emulate API in upstream mode. With --emulate-via-upstream, both routes go to the upstream's own Emulate
 * API (on the v3 base address, /api/emulate/v1/...) through the upstream client, so its pace, per-attempt
 * timeout, answer size and nesting bounds hold; the answer, error or not, is passed on as it came. Without it,
 * local emulation against the upstream's state needs the upstream account loader, not part of this source yet:
 * both routes answer 501.
 */
import { ApiError } from '../../api/errors.js';
import type { EmulateApi } from '../../api/emulate.js';
import type { UpstreamClient } from './client.js';

export const LOCAL_EMULATION_UNAVAILABLE =
  'local emulation against the upstream state needs the upstream account loader, which this gateway does not have yet; start it with --emulate-via-upstream (EMULATE_VIA_UPSTREAM=1) to use the upstream\'s own Emulate API';

export function upstreamEmulateApi(client: UpstreamClient, viaUpstream: boolean): EmulateApi {
  if (!viaUpstream) {
    const refuse = () => Promise.reject(new ApiError(501, LOCAL_EMULATION_UNAVAILABLE));
    return { emulateTrace: refuse, emulateTonConnect: refuse };
  }
  const forward = async (route: 'emulateTrace' | 'emulateTonConnect', body: unknown, actionsVersion: string | undefined) =>
    (await client.call({
      api: 'v3',
      method: 'POST',
      path: `/emulate/v1/${route}`,
      body: body as Record<string, unknown>,
      ...(actionsVersion ? { headers: { 'x-actions-version': actionsVersion } } : {}),
      idempotent: false,
      raw: true,
    })) as { status: number; text: string };
  const unused = () => Promise.reject(new ApiError(501, 'with --emulate-via-upstream only /api/emulate/v1 is forwarded to the upstream; the graph cannot emulate'));
  return {
    emulateTrace: unused,
    emulateTonConnect: unused,
    async passthrough(route, body, actionsVersion) {
      const a = await forward(route, body, actionsVersion);
      return { status: a.status, body: a.text };
    },
  };
}
