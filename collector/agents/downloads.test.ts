// Agent downloads (docs/hostile-input.md, "Agent builds"): streamed with backpressure, idle readers cut off, HEAD
// answered from the file's size alone. Slow readers once held whole builds in the collector's memory.
// The memory test runs `sitebeacon serve` (needs `npm run build`) and reads its RSS from /proc.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { get, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createTestCollector } from '../testing/testCollector';
import { spawnCollector } from '../testing/spawnCollector';

// Real processes on a machine shared with other work: generous time.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-downloads-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const GZIP = Buffer.from([0x1f, 0x8b]);
const build = (name: string, bytes: number) => {
  writeFileSync(join(dir, name), Buffer.concat([GZIP, randomBytes(bytes - GZIP.length)]));
  return `/downloads/agents/${name}`;
};

test('a reader that takes nothing for the idle timeout is cut off, and the file is closed', async () => {
  const collector = createTestCollector({ agentUpdates: { dir, privateKey: generateKeyPairSync('ed25519').privateKey, idleTimeoutMs: 200 } });
  try {
    const path = build('sitebeacon-agent-1.0.0-linux-amd64.tar.gz', 4 * 1024 * 1024);
    // A reader that keeps reading gets every byte.
    const whole = new Uint8Array(await (await collector.request(path)).arrayBuffer());
    expect(Buffer.from(whole).equals(readFileSync(join(dir, 'sitebeacon-agent-1.0.0-linux-amd64.tar.gz')))).toBe(true);
    // One that stops after the first chunk is ended.
    const reader = (await collector.request(path)).body!.getReader();
    expect((await reader.read()).value!.byteLength).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 600));
    await expect(reader.read()).rejects.toThrow(/idle/);
  } finally {
    await collector.close();
  }
});

test('HEAD answers the size of a 3 GiB build at once, without reading it', async () => {
  const collector = createTestCollector({ agentUpdates: { dir, privateKey: generateKeyPairSync('ed25519').privateKey } });
  try {
    // Sparse: three gigabytes that take no disk, and that no one could read whole in a second.
    const file = join(dir, 'sitebeacon-agent-2.0.0-linux-amd64.tar.gz');
    const fd = openSync(file, 'w');
    writeSync(fd, GZIP);
    writeSync(fd, Buffer.from([0]), 0, 1, 3 * 1024 ** 3 - 1);
    closeSync(fd);
    const started = performance.now();
    const head = await collector.request('/downloads/agents/sitebeacon-agent-2.0.0-linux-amd64.tar.gz', { method: 'HEAD' });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(3 * 1024 ** 3));
    expect(head.headers.get('content-type')).toBe('application/octet-stream');
    expect(await head.text()).toBe('');
  } finally {
    await collector.close();
  }
});

/** The resident memory of a process, in MiB (Linux). */
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

test('ten slow readers of a 32 MiB build cost the collector little memory: the build is streamed, not read whole', async () => {
  const path = build('sitebeacon-agent-1.0.0-linux-amd64.tar.gz', 32 * 1024 * 1024);
  const collector = await spawnCollector({ db: join(dir, 'sitebeacon.db'), args: ['--agent-updates-dir', dir, '--log-level', 'silent'] });
  const requests: ClientRequest[] = [];
  try {
    // One whole download first: what the process needs for it at all is in the baseline.
    await (await fetch(collector.url + path)).arrayBuffer();
    const before = rssMiB(collector.child.pid!);
    // Each reader takes its first bytes, then stops reading.
    await Promise.all(
      Array.from(
        { length: 10 },
        () =>
          new Promise<void>((resolve, reject) => {
            const request = get(collector.url + path, (response) => {
              response.once('data', () => {
                response.pause();
                resolve();
              });
            });
            request.on('error', reject);
            requests.push(request);
          }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const grown = rssMiB(collector.child.pid!) - before;
    // Read whole, ten readers would hold 320 MiB of file (and as much again in copies).
    expect(grown).toBeLessThan(80);
    // And the collector still answers at once.
    expect((await fetch(`${collector.url}/api/test-connectivity`)).status).toBe(200);
  } finally {
    for (const request of requests) request.destroy();
    await collector.stop('SIGKILL');
  }
});
