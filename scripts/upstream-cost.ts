/**
 * The explorer's pages in upstream mode, in upstream calls and time, cold and warm (issue 30's table):
 *
 *   npx tsx scripts/upstream-cost.ts [rps ...]        (default: 1 10)
 *
 * Per rps: a fresh upstream-mode gateway (cold cache) runs every page once, then every page again (warm,
 * within ACCOUNT_TTL_MS). Calls are what a counting proxy in front of the upstream saw; see lib/upstream-pages.ts.
 */
import { startPageBench, type PageRun } from './lib/upstream-pages.js';

const rates = process.argv.slice(2).map(Number);
const rows: string[] = ['| page | rps | cold calls | cold time | warm calls | warm time |', '|---|---|---|---|---|---|'];
const fmt = (r: PageRun) => [String(r.calls), `${(r.ms / 1000).toFixed(2)} s`];
const detail = (r: PageRun) => Object.entries(r.byPath).map(([p, n]) => `${p.replace(/^\/api/, '')} ${n}`).join(', ');

for (const rps of rates.length ? rates : [1, 10]) {
  const bench = await startPageBench({ rps });
  try {
    const cold: PageRun[] = [];
    for (const page of bench.pages) cold.push(await bench.run(page));
    const warm: PageRun[] = [];
    for (const page of bench.pages) warm.push(await bench.run(page));
    for (let i = 0; i < cold.length; i++) {
      const c = cold[i]!;
      const w = warm[i]!;
      if (c.body.errors?.length) console.error(`${c.name}: ${JSON.stringify(c.body.errors).slice(0, 300)}`);
      rows.push(`| ${c.name} | ${rps} | ${fmt(c).join(' | ')} | ${fmt(w).join(' | ')} |`);
      console.error(`rps ${rps} ${c.name}: cold ${detail(c)}; warm ${detail(w) || 'none'}`);
    }
  } finally {
    await bench.close();
  }
}
console.log(rows.join('\n'));
