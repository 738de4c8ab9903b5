/** One toncenter v2 JSON-RPC call to a gateway over loopback, answered as its envelope. */
import type { Gateway } from '../../src/gateway.js';

export interface V2Envelope {
  ok: boolean;
  result?: any;
  error?: string;
  code?: number;
}

export async function v2Rpc(g: Pick<Gateway, 'url'>, method: string, params: Record<string, unknown>): Promise<V2Envelope> {
  const res = await fetch(`${g.url}/api/v2/jsonRPC`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as V2Envelope;
}
