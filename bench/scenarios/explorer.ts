/**
 * Upstream calls per explorer page: the explorer's own documents (src/surfaces/explorer/app/documents.ts) through
 * a gateway in upstream mode, paced at `rps`, in front of a counting proxy and a local chain
 * (scripts/lib/upstream-pages.ts), with the CLI's default account TTL. Each page on a fresh upstream-mode gateway
 * (cold cache); then the transaction page again on the gateway that has just shown it, once the account TTL has
 * passed (final data asked again: nothing in it may be asked twice). Every answer must be the local chain's own,
 * byte for byte, or the count means nothing.
 */
import { nftPagesOf, startPageBench, type PageRun } from '../../scripts/lib/upstream-pages.js';

export interface ExplorerPage {
  name: string;
  calls: number;
  byPath: Record<string, number>;
  ms: number;
}

/** --account-ttl-ms's default (src/sources/upstream/options.ts) */
const ACCOUNT_TTL_MS = 1000;

export async function explorerScenario(o: { rps: number; account: string; log: (m: string) => void }): Promise<ExplorerPage[]> {
  const bench = await startPageBench({ rps: o.rps, accountTtlMs: ACCOUNT_TTL_MS, pages: (local) => nftPagesOf(local, o.account) });
  try {
    const out: ExplorerPage[] = [];
    const keep = async (name: string, r: PageRun) => {
      if (r.status !== 200 || r.body.errors?.length) throw new Error(`${name}: HTTP ${r.status} ${JSON.stringify(r.body.errors ?? r.text).slice(0, 300)}`);
      const page = bench.pages.find((p) => p.name === r.name)!;
      const local = await bench.run(page, {}, bench.local);
      if (local.text !== r.text) throw new Error(`${name}: upstream mode answered otherwise than the local chain`);
      out.push({ name, calls: r.calls, byPath: r.byPath, ms: r.ms });
      o.log(`  explorer ${name}: ${r.calls} calls (${Object.entries(r.byPath).map(([p, n]) => `${p} ${n}`).join(', ') || 'none'}), ${(r.ms / 1000).toFixed(2)} s`);
    };
    for (const page of bench.pages) {
      await bench.restart();
      await keep(page.name, await bench.run(page));
      if (page.name !== 'transaction') continue;
      await new Promise((r) => setTimeout(r, ACCOUNT_TTL_MS + 200));
      await keep('final data again', await bench.run(page));
    }
    return out;
  } finally {
    await bench.close();
  }
}
