/**
 * The test run's own temporary folder (vitest's globalSetup). Workers and the processes they start
 * read TMPDIR through os.tmpdir(), so every test's mkdtemp, Chromium's unpacked binary and profiles,
 * and the CDK's assemblies go under it; it is removed when the run ends. Without it each run left
 * its folders in the machine's /tmp (a few dozen, some of 15 MB), and the soak test measured every
 * earlier run's leftovers too.
 *
 * Chromium is unpacked there once, before any worker starts: @sparticuz/chromium unpacks into
 * os.tmpdir() on first use, and two test files launching it at once would each write the binary
 * over the other's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default async function setup(): Promise<() => void> {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'spider-test-run-'));
  const teardown = () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
  process.env.TMPDIR = dir;
  try {
    // imported only now: on load the package reads the temporary folder for its fonts and libraries
    const { default: chromium } = await import('@sparticuz/chromium');
    await chromium.executablePath();
  } catch (error) {
    teardown();
    throw error;
  }
  return teardown;
}
