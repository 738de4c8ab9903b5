/** npm run build: bundles the explorer's browser code into dist/explorer-assets (see src/surfaces/explorer/build.ts). */
import { buildExplorer } from '../src/surfaces/explorer/build.js';

const { files, ms } = await buildExplorer();
console.log(`explorer: ${files.map((f) => `${f.name} ${(f.bytes / 1024).toFixed(1)} KiB`).join(', ')} in ${ms} ms`);
