/**
 * Which targets a webhook may have where private ones are refused: every special-purpose range of RFC 6890 (and
 * IPv4 addresses mapped into IPv6 or behind NAT64 judged as IPv4), public addresses allowed; a name is checked
 * on what it resolves to when the connection is made.
 */
import { describe, expect, it } from 'vitest';
import { checkTargetUrl, isPrivateAddress, publicOnlyLookup } from '../../../src/live/webhooks/target.js';

describe('isPrivateAddress', () => {
  it('refuses loopback, private, link-local, shared, multicast, documentation and reserved ranges', () => {
    for (const ip of ['127.0.0.1', '127.255.0.9', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '198.18.0.1', '192.0.2.1']) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1', '2001:db8::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:c0a8:101', '64:ff9b::a00:1', '64:ff9b::10.0.0.1']) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
  });

  it('allows public addresses', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
    expect(isPrivateAddress('not an address')).toBe(true);
  });
});

describe('checkTargetUrl', () => {
  it('takes any http(s) URL when private targets are allowed, and only public hosts when not', () => {
    expect(checkTargetUrl('http://127.0.0.1:8080/x', true)).toBeUndefined();
    expect(checkTargetUrl('http://127.0.0.1:8080/x', false)).toMatch(/^url must name a public host: 127\.0\.0\.1/);
    expect(checkTargetUrl('https://hooks.example.com/x?y=1', false)).toBeUndefined();
    expect(checkTargetUrl('http://[2606:4700::1111]/', false)).toBeUndefined();
    expect(checkTargetUrl('http://a.localhost/', false)).toMatch(/a\.localhost is loopback/);
    expect(checkTargetUrl('file:///etc/passwd', true)).toBe('url must be an http or https URL');
    expect(checkTargetUrl('https://example.com/#x', true)).toBe('url must not have a fragment');
    expect(checkTargetUrl(`https://example.com/${'x'.repeat(2048)}`, true)).toBe('url must be at most 2048 characters');
  });

  it('refuses at connect time a name that resolves to a private address', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => publicOnlyLookup('localhost', {}, (e) => resolve(e)));
    expect(err?.code).toBe('ETARGETPRIVATE');
    expect(err?.message).toMatch(/^target localhost resolves to (127\.0\.0\.1|::1), a private address$/);
  });
});
