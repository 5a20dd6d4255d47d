import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'infra-tests/**/*.test.ts'],
    // one temporary folder per run, removed at its end (test/helpers/temp-dir.ts)
    globalSetup: ['test/helpers/temp-dir.ts'],
    // Chromium tests share one browser per file; keep files parallel but bounded on 2 cores.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The tests' sites are served on 127.0.0.1 (and *.localhost names): allowlisted for the egress
    // guard, and not rate-limited per host. Security and politeness tests set their own values.
    env: { SPIDER_ALLOW_HOSTS: '127.0.0.1,localhost,*.localhost', SPIDER_HOST_INTERVAL_MS: '0' },
  },
});
