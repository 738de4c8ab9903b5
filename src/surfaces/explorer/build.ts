/**
 * Bundles the explorer's browser code (app/, Preact) with esbuild into content-hashed files plus the index page
 * that names them. The same function runs in `npm run build` and in the explorer test; the server only reads
 * the output (assets.ts), so esbuild and Preact are build-time packages.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { EXPLORER_ASSETS } from './assets.js';

const ENTRY = fileURLToPath(new URL('./app/main.tsx', import.meta.url));

export interface ExplorerBuild {
  files: { name: string; bytes: number }[];
  ms: number;
}

function indexHtml(script: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>TON explorer</title>
<link rel="stylesheet" href="/explorer/static/${style}">
</head>
<body>
<div id="app"><noscript>The explorer needs JavaScript.</noscript></div>
<script type="module" src="/explorer/static/${script}"></script>
</body>
</html>
`;
}

export async function buildExplorer(outDir: string = EXPLORER_ASSETS): Promise<ExplorerBuild> {
  const started = performance.now();
  await mkdir(outDir, { recursive: true });
  const result = await build({
    entryPoints: { app: ENTRY },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    outdir: outDir,
    legalComments: 'eof',
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = Object.entries(result.metafile.outputs).map(([path, o]) => ({ name: basename(path), bytes: o.bytes }));
  const script = outputs.find((o) => o.name.endsWith('.js'));
  const style = outputs.find((o) => o.name.endsWith('.css'));
  if (!script || !style) throw new Error(`explorer build produced ${outputs.map((o) => o.name).join(', ')}`);
  const html = indexHtml(script.name, style.name);
  // written aside and renamed over the old one: a gateway serving the directory meanwhile (a running server, another
  // test file, another build) reads the old index or the new one, never none or half of one
  const aside = join(outDir, `.index-${process.pid}-${randomUUID()}`);
  await writeFile(aside, html);
  await rename(aside, join(outDir, 'index.html'));
  const files = [...outputs, { name: 'index.html', bytes: Buffer.byteLength(html) }];
  // what an earlier build of other sources left goes: the index names the only bundle there is
  const kept = new Set(files.map((f) => f.name));
  for (const name of await readdir(outDir)) if (!kept.has(name) && !name.startsWith('.index-')) await rm(join(outDir, name), { recursive: true, force: true });
  const present = new Set(await readdir(outDir));
  for (const f of files) if (!present.has(f.name)) throw new Error(`explorer build: ${f.name} was not written`);
  return { files, ms: Math.round(performance.now() - started) };
}
