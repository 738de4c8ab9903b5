/**
 * toncenter's `@extra` inside v2 results. The Python ton-http-api returns tonlib's objects as they come, and
 * tonlib tags each with the request's `@extra`, `"<unix time>:<lite server index>:<random>"` (v2.md §1.1);
 * results the server builds itself (transaction lists, wallet information, address forms, a bare balance)
 * carry none. The recorded answers under ../shared/fixtures/real/v2 show which endpoints do; this adds the tag to
 * the same ones, as the last member of the result object.
 *
 * An answer that already has one, or is an upstream answer passed on as its own text, is left as it is.
 * Apart from that tag, a JSON-RPC request's own `@extra` comes back in the envelope (service-spec.md, jsonRPC).
 */
import { preSerialized } from '../../api/raw-answer.js';

/** Endpoints whose toncenter results are tonlib objects, which carry `@extra`. */
const TAGGED = new Set([
  'getAddressInformation',
  'getExtendedAddressInformation',
  'getMasterchainInfo',
  'getMasterchainBlockSignatures',
  'getShardBlockProof',
  'lookupBlock',
  'getShards',
  'getBlockHeader',
  'getBlockTransactions',
  'getBlockTransactionsExt',
  'getConfigParam',
  'getConfigAll',
  'runGetMethod',
  'estimateFee',
  'sendBoc',
  'sendBocReturnHash',
]);

/** The tag as tonlib writes it: seconds with a fraction, lite server 0 (the gateway's only one), a random number. */
export function extraTag(): string {
  const seconds = ((performance.timeOrigin + performance.now()) / 1000).toFixed(7);
  return `${seconds}:0:${Math.random()}`;
}

/** `result` of endpoint `name` with toncenter's `@extra` when toncenter's own result would carry one. */
export function withExtra(name: string, result: unknown): unknown {
  if (!TAGGED.has(name) || typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  if (preSerialized(result) !== undefined || '@extra' in result) return result;
  // Object.assign rather than a spread copy, to which V8 (Node 20) adds a property ten times slower
  return Object.assign({}, result, { '@extra': extraTag() });
}

/** The envelope member echoing a JSON-RPC request's own `@extra`, when it has one. */
export function echoedExtra(body: Record<string, unknown>): { '@extra'?: unknown } {
  return body['@extra'] === undefined ? {} : { '@extra': body['@extra'] };
}
