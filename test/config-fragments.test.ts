/** The options composed from the general fragment and each source's own: no flag claimed twice, every flag in --help. */
import { describe, expect, it } from 'vitest';
import { FLAGS, USAGE, composeFlags } from '../src/config.js';
import { SOURCES } from '../src/sources/index.js';

describe('composed options', () => {
  it('lists every flag the parser takes in --help, each source\'s under its own section', () => {
    const documented = new Set([...USAGE.matchAll(/--([a-z0-9-]+)/g)].map((m) => m[1]));
    for (const flag of Object.keys(FLAGS)) if (flag !== 'help') expect(documented, `--${flag}`).toContain(flag);
    for (const [name, kind] of Object.entries(SOURCES)) {
      const section = USAGE.slice(USAGE.indexOf(`  Source ${name} (${kind.options.title}):\n`));
      expect(section.startsWith('  Source')).toBe(true);
      for (const flag of Object.keys(kind.options.flags)) expect(section).toContain(`--${flag}`);
    }
  });

  it('refuses a flag two fragments claim', () => {
    expect(() => composeFlags({ general: { seed: { type: 'string' } }, 'source localnet': { seed: { type: 'string' } } })).toThrow(
      '--seed is claimed by both general and source localnet',
    );
  });
});
