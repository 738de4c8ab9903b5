/**
 * How a delivery is signed, so its receiver can tell it came from this server and was not changed or replayed
 * much later (docs/webhooks.md, "Checking a delivery"):
 *
 *   X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>
 *
 * `<body>` is the request body exactly as sent (bytes, UTF-8). The receiver computes the same HMAC with the
 * webhook's secret, compares it in constant time, and refuses a `t` too far from its own clock. Each attempt is
 * signed anew, with its own `t`.
 */
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-webhook-signature';
/** The webhook's id. */
export const WEBHOOK_ID_HEADER = 'x-webhook-id';
/** The event's id: the same for every attempt and every replay of one event, so a receiver can drop repeats. */
export const EVENT_ID_HEADER = 'x-webhook-event-id';
/** The event's cursor (finalized events): what `last_delivered` becomes once the receiver answers 2xx. */
export const CURSOR_HEADER = 'x-webhook-cursor';
/** 1 for the first attempt at an event, then 2, 3, ... */
export const ATTEMPT_HEADER = 'x-webhook-attempt';

/** The signature header's value for a body sent at `t` (unix seconds). */
export function signatureHeader(secret: string, t: number, body: string | Buffer): string {
  const mac = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
  return `t=${t},v1=${mac}`;
}
