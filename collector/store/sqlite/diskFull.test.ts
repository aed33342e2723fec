// A full disk under a running collector (README, "Endpoints": `GET /api/health` answers 503 when
// the store cannot write, a full disk among the causes): writes fail 5xx, health answers 503
// "the disk is full"; once space is freed, both recover without a restart. The disk is a small
// tmpfs the test mounts, which needs root (or CAP_SYS_ADMIN): elsewhere the test is skipped, and
// its name says why.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test, vi } from 'vitest';
import { createCollector } from '../../app';
import { createSqliteStore } from '../sqlite';

vi.setConfig({ testTimeout: 60_000 });

const mountPoint = mkdtempSync(join(tmpdir(), 'sitebeacon-full-disk-'));
let cannotMount: string | undefined;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint], { stdio: 'pipe' });
} catch (error) {
  cannotMount = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim() || 'mount failed';
}

afterAll(() => {
  if (!cannotMount) execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Writes to `file` until the file system refuses (ENOSPC); resolves to the bytes written. */
const fill = (file: string) => {
  const fd = openSync(file, 'w');
  let written = 0;
  try {
    for (const size of [1 << 16, 1 << 12, 1 << 9]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) written += writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code != 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
};

const title = 'a full disk: reports answered 5xx, health 503 "the disk is full"; space freed: health 200 and reports 202 again, without a restart';

test.skipIf(cannotMount !== undefined)(cannotMount ? `${title} (skipped: cannot mount a tmpfs here: ${cannotMount})` : title, async () => {
  const store = createSqliteStore({ file: join(mountPoint, 'sitebeacon.db') });
  const logged: unknown[] = [];
  const app = createCollector({
    store,
    beaconFile: fileURLToPath(new URL('../../../dist/beacon.min.js', import.meta.url)),
    links: { appUrl: () => 'http://127.0.0.1:8787' },
    logError: (error) => logged.push(error),
    rateLimits: { perIp: 0, perSite: 0 },
  });
  const request = (path: string, init?: RequestInit) => app.fetch(new Request(`http://collector.test${path}`, init));
  // A batch of 50 reports with long stacks (about 50 KiB): more than a WAL emptied by a checkpoint
  // holds after a few of them, so the disk's last bytes run out.
  const batch = JSON.stringify(
    Array.from({ length: 50 }, (_, index) => ({ error_type: 'js', error_message: `boom ${index}`, stack: `${index} ${'at f (https://shop.example/app.js:1:1)\n'.repeat(25)}` })),
  );
  const post = () => request('/api/error-reports', { method: 'POST', body: batch, headers: { 'content-type': 'application/json' } });
  const health = async () => {
    const response = await request('/api/health');
    return { status: response.status, body: await response.json() };
  };
  try {
    expect((await post()).status).toBe(202);
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });

    const filler = join(mountPoint, 'filler');
    expect(fill(filler)).toBeGreaterThan(0);
    let status = 202;
    for (let attempt = 0; attempt < 100 && status < 500; attempt++) status = (await post()).status;
    expect(status).toBeGreaterThanOrEqual(500);
    expect(await health()).toEqual({ status: 503, body: { status: 'unhealthy', reason: 'the disk is full' } });

    rmSync(filler);
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await post()).status).toBe(202);
    expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });
  } finally {
    await store.close();
  }
});
