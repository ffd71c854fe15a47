import { defineConfig } from 'vitest/config';

// The real workspace images (code-server, and the types built on it) through the orchestrator. Not part
// of `pnpm test`: the images take minutes to build (scripts/build-workspace-images.sh). Run it with
// `pnpm --filter @exam/workspace-orchestrator test:real-image`; it fails before any test when an image is absent.
export default defineConfig({
  test: {
    include: ['src/testing/*.real-image.ts'],
    globalSetup: ['./vitest.real-image.setup.ts'],
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
