/** normalizeUrl: the one spelling of a request path every stage reads (RFC 3986 §6.2.2, §5.2.4). */
import { describe, expect, it } from 'vitest';
import { normalizeUrl } from '../../src/pipeline/request-path.js';

describe('normalizeUrl', () => {
  it('returns a canonical target as it is, query included', () => {
    for (const url of ['/', '/api/v2/getMasterchainInfo', '/api/v3/account?address=0%3Aab&limit=10', '/graphql?query=%7B__typename%7D', '/.well-known']) {
      expect(normalizeUrl(url)).toBe(url);
    }
  });

  it('decodes escaped unreserved characters and slashes in the path, in either hex case', () => {
    expect(normalizeUrl('/%61pi/%76%32/getMasterchainInfo')).toBe('/api/v2/getMasterchainInfo');
    expect(normalizeUrl('/%41%5a%7e%2d%5F%2e%30')).toBe('/AZ~-_.0');
    expect(normalizeUrl('/api%2Fv3%2fblocks')).toBe('/api/v3/blocks');
  });

  it('keeps every other escape in the path, and the query byte for byte', () => {
    expect(normalizeUrl('/a%20b/%3F%25%23%C3%A9')).toBe('/a%20b/%3F%25%23%C3%A9');
    expect(normalizeUrl('/%2561pi')).toBe('/%2561pi');
    expect(normalizeUrl('/api/v2/%zz')).toBe('/api/v2/%zz');
    expect(normalizeUrl('/%61pi/v2/x?%61=%2F&b=..//./')).toBe('/api/v2/x?%61=%2F&b=..//./');
  });

  it('merges runs of slashes and removes dot segments, spelled or escaped, never above the root', () => {
    expect(normalizeUrl('//api///v2//x')).toBe('/api/v2/x');
    expect(normalizeUrl('/./api/./v2/x')).toBe('/api/v2/x');
    expect(normalizeUrl('/x/../api/y/z/../../v2/x')).toBe('/api/v2/x');
    expect(normalizeUrl('/../../api/v2/x')).toBe('/api/v2/x');
    expect(normalizeUrl('/x/%2e%2E/api/%2E/v2/x')).toBe('/api/v2/x');
    expect(normalizeUrl('/x%2F..%2Fapi/v2/x')).toBe('/api/v2/x');
    expect(normalizeUrl('/a/b/.')).toBe('/a/b/');
    expect(normalizeUrl('/a/b/..')).toBe('/a/');
    expect(normalizeUrl('/..')).toBe('/');
    expect(normalizeUrl('/.../x')).toBe('/.../x');
  });

  it('drops a fragment and turns an absolute-form target into its path', () => {
    expect(normalizeUrl('/graphql#x')).toBe('/graphql');
    expect(normalizeUrl('/graphql#/../api?x=1')).toBe('/graphql');
    expect(normalizeUrl('/api/v2/x?a=1#f')).toBe('/api/v2/x?a=1#f');
    expect(normalizeUrl('http://example.org/%61pi/v2/x?a=1')).toBe('/api/v2/x?a=1');
    expect(normalizeUrl('HTTP://example.org')).toBe('/');
    expect(normalizeUrl('http://example.org?a=1')).toBe('/?a=1');
    expect(normalizeUrl('*')).toBe('*');
  });
});
