import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'infra-tests/**/*.test.ts'],
    // Chromium tests share one browser per file; keep files parallel but bounded on 2 cores.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
