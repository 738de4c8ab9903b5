/** Where buildExplorer writes the explorer's files and the route reads them: from src/ and dist/ alike (both two levels under the package root). */
import { fileURLToPath } from 'node:url';

export const EXPLORER_ASSETS = fileURLToPath(new URL('../../../dist/explorer-assets/', import.meta.url));
