/**
 * Where a webhook may POST. A webhook is a request the server makes to an address an API client chose, so unless
 * private targets are allowed (the local chain's default: its receivers run beside it) an address in a loopback,
 * private, link-local, shared, multicast or reserved range is refused: when the webhook is made (a literal
 * address, or a name that is local by definition), and again when each connection is made, on the addresses the
 * name resolves to then (so a name that later resolves to a private address is refused too).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Longest target URL accepted. */
export const MAX_URL_LENGTH = 2048;

/** RFC 6890's special-purpose ranges a public receiver never sits in, and the unspecified and broadcast ones. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

/** Whether an IP address (v4, v6, or v4 mapped into v6) is one a public receiver cannot have. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return PRIVATE.check(ip, 'ipv4');
  if (family !== 6) return true;
  // an IPv4 address mapped into IPv6, or behind NAT64's well-known prefix, is judged as that IPv4 address
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (dotted) return PRIVATE.check(dotted[1]!, 'ipv4');
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return PRIVATE.check([hi >> 8, hi & 255, lo >> 8, lo & 255].join('.'), 'ipv4');
  }
  return PRIVATE.check(ip, 'ipv6');
}

const hostOf = (u: URL): string => u.hostname.replace(/^\[|\]$/g, '');

/** Why a target URL is refused, or undefined when it may be used. */
export function checkTargetUrl(text: string, allowPrivate: boolean): string | undefined {
  if (text.length > MAX_URL_LENGTH) return `url must be at most ${MAX_URL_LENGTH} characters`;
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'url must be an http or https URL';
  if (u.username || u.password) return 'url must not carry credentials';
  if (u.hash) return 'url must not have a fragment';
  if (allowPrivate) return undefined;
  const host = hostOf(u).toLowerCase();
  if (isIP(host) ? isPrivateAddress(host) : host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
    return `url must name a public host: ${host} is loopback, private or reserved (the server refuses private targets)`;
  }
  return undefined;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net.connect that resolves as usual and refuses a name any of whose addresses is private, so a
 * name cannot be pointed at the server's own network after the webhook was made.
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad) {
      const e = new Error(`target ${hostname} resolves to ${bad.address}, a private address`) as NodeJS.ErrnoException;
      e.code = 'ETARGETPRIVATE';
      return callback(e, '');
    }
    if (options.all) return callback(null, list);
    const first = list[0];
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
    callback(null, first.address, first.family);
  });
}

/** Whether the URL's host is an IP literal in a private range (a connection to a literal makes no lookup). */
export function literalPrivate(url: URL): boolean {
  const host = hostOf(url);
  return isIP(host) !== 0 && isPrivateAddress(host);
}
