import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Test files that start no server, process, socket or worker and change no environment: they share one worker's
 * module cache (`isolate: false`), which saves the two seconds each file would spend importing the sources again.
 * Everything else runs isolated, one fresh module graph per file.
 */
const SHARED_MODULES = [
  'test/model/**/*.test.ts',
  'test/api/**/*.test.ts',
  'test/config-fragments.test.ts',
  'test/http/v3-schemas-reference.test.ts',
  'test/pipeline/request-path.test.ts',
  'test/sources/localnet/contracts.test.ts',
  'test/sources/localnet/get-method-memo.test.ts',
  'test/sources/upstream/v2-requests.test.ts',
  'test/surfaces/explorer/documents.test.ts',
  'test/surfaces/graphql/context-cache.test.ts',
  'test/surfaces/graphql/keyset.test.ts',
  'test/surfaces/rest/v3-descriptors.test.ts',
  'test/surfaces/rest/v3-params.test.ts',
  'test/surfaces/rest/v3-schema.test.ts',
];

export default defineConfig({
  resolve: {
    // one graphql realm: Node loads graphql's CJS entry for yoga and Pothos, so our sources must get the same one
    alias: [{ find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) }],
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: SHARED_MODULES, isolate: false } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: SHARED_MODULES } },
    ],
  },
});
