/** Checks shared by the browser tests of the gateway's HTML pages: their security headers, and CSP violations a page reports. */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/**
 * Asserts the headers every HTML page carries (framing refused both ways, no sniffing, no Referer, no inline or
 * foreign script) and returns the page's Content-Security-Policy by directive.
 */
export function expectPageHeaders(headers: Record<string, unknown>): Map<string, string> {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
  const policy = String(headers['content-security-policy'] ?? '');
  const directives = new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values.join(' ')]),
  );
  expect(directives.get('frame-ancestors'), policy).toBe("'none'");
  expect(directives.get('object-src'), policy).toBe("'none'");
  expect(directives.get('base-uri'), policy).toBe("'none'");
  const scripts = directives.get('script-src') ?? directives.get('default-src') ?? '';
  expect(scripts, policy).toMatch(/^'self'( 'sha256-[\w+/=]+')*$/);
  return directives;
}

/** The Content-Security-Policy violations the page reports (Chromium logs each as a console error) from now on. */
export function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(m.text().slice(0, 300));
  });
  return seen;
}
