/**
 * The npm scripts that render (`npm start`, `npm run loadtest`) as a user stops them: the signal
 * reaches the script's process, and no Chromium is left behind.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveHangingPage } from '../helpers/hanging-page';
import { deepestNamed, processes } from '../helpers/processes';

describe('npm run loadtest', () => {
  it('on Ctrl-C while its event loop is busy, closes Chromium: the script runs under Node with tsx as its loader, not under tsx\'s CLI', { timeout: 180_000 }, async () => {
    // tsx's CLI SIGKILLs its child when the child has not answered a relayed SIGINT within about 60 ms
    // (an extraction holding the event loop): puppeteer never closed Chromium, which runs in a process
    // group of its own (the terminal's Ctrl-C does not reach it) and was left running.
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'spider-npm-script-'));
    const ofThisRun = async () => (await processes()).filter((p) => p.args.includes(tmp));
    const child = spawn('npm', ['run', 'loadtest', '--', '--urls', '30', '--sites', '2'], {
      env: { ...process.env, CI: 'true', TMPDIR: tmp },
      detached: true, // a process group of its own, as a terminal's foreground job
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let ended = false;
    void exited.then(() => (ended = true));
    try {
      // Chromium runs (unpacked under this run's temporary folder): the load test is rendering.
      while (!ended && (await ofThisRun()).length === 0) await new Promise((r) => setTimeout(r, 100));
      expect(ended).toBe(false);
      // The process running the script: the deepest one whose arguments name it.
      const script = await deepestNamed(child.pid!, path.join('scripts', 'loadtest.ts'));
      expect(script).not.toBe(child.pid);
      // Its event loop held (as by a long extraction) while Ctrl-C reaches the whole process group.
      process.kill(script, 'SIGSTOP');
      process.kill(-child.pid!, 'SIGINT');
      await new Promise((r) => setTimeout(r, 500));
      try {
        process.kill(script, 'SIGCONT');
      } catch {
        // gone already: killed while stopped (tsx's CLI did)
      }
      await exited;
      await new Promise((r) => setTimeout(r, 1000));
      expect((await ofThisRun()).map((p) => p.args.slice(0, 120))).toEqual([]);
    } finally {
      // what the run left (on the old code: Chromium), ended by its pid
      for (const p of await ofThisRun()) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      if (!ended) process.kill(-child.pid!, 'SIGKILL');
      await rm(tmp, { recursive: true, force: true }); // Chromium unpacks itself there (200 MB)
    }
  });
});

describe('npm start', () => {
  it('on SIGTERM to npm alone (timeout(1), systemd) stops the spider command: the page in flight goes back to its queue, exit 143, no process left', { timeout: 120_000 }, async () => {
    // npm runs a script with sh -c, which died on the SIGTERM npm relayed to it: npm exited 143 while
    // the spider command went on, its parent gone, holding the data folder's lock and Chromium.
    const hanging = await serveHangingPage();
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'spider-npm-start-'));
    const dataDir = path.join(tmp, 'data');
    const ofThisRun = async () => (await processes()).filter((p) => p.args.includes(tmp));
    const child = spawn('npm', ['start', '--', '--data-dir', dataDir, 'run', hanging.url], {
      env: { ...process.env, CI: 'true', SPIDER_BUCKET: '', SPIDER_STACK_OUTPUTS: '', TMPDIR: tmp },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      while (hanging.hits() === 0) await new Promise((r) => setTimeout(r, 100));
      child.kill('SIGTERM'); // to npm only
      expect(await exited).toBe(143);
      expect(stderr).toContain('SIGTERM: stopping');
      expect((await ofThisRun()).map((p) => p.args.slice(0, 120))).toEqual([]);
      const pendingDir = path.join(dataDir, 'queues', 'render', 'pending');
      const pending = await readdir(pendingDir);
      expect(pending).toHaveLength(1);
      expect(JSON.parse(await readFile(path.join(pendingDir, pending[0]), 'utf8'))).toMatchObject({ receiveCount: 0, errors: [] });
    } finally {
      for (const p of await ofThisRun()) {
        try {
          process.kill(p.pid, 'SIGKILL'); // what the run left (on the old code: the spider command and Chromium)
        } catch {
          // gone
        }
      }
      hanging.close();
      await rm(tmp, { recursive: true, force: true }); // Chromium unpacks itself there (200 MB)
    }
  });
});
