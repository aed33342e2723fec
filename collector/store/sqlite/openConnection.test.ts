import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { openConnection } from './openConnection';

test('every connection is in WAL mode with its sync level (FULL = 2, NORMAL = 1) and its page cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-connection-'));
  try {
    const full = openConnection(join(dir, 'a.db'), { sync: 'full', cacheKiB: 4096 });
    expect(full.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(full.pragma('synchronous', { simple: true })).toBe(2);
    expect(full.pragma('cache_size', { simple: true })).toBe(-4096);
    full.close();
    const normal = openConnection(join(dir, 'a.db'), { sync: 'normal', cacheKiB: 8192 });
    expect(normal.pragma('synchronous', { simple: true })).toBe(1);
    expect(normal.pragma('cache_size', { simple: true })).toBe(-8192);
    normal.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
