// The SQLite file deleted or replaced under a running collector (sqlite/fileIdentity.ts): its
// connections would go on writing to a file nothing will open again, so writes are refused 503,
// never acknowledged, and health says why.
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { createTestCollector } from '../../testing/testCollector';
import { createSqliteStore } from '../sqlite';

let collector: ReturnType<typeof createTestCollector>;
afterEach(() => collector.close());

const report = { error_type: 'php_error', error_message: 'boom' };

const expectRefused = async (reason: string) => {
  const refused = await collector.post('/api/error-reports', report);
  expect(refused.status).toBe(503);
  const health = await collector.request('/api/health');
  expect(health.status).toBe(503);
  expect(await health.json()).toEqual({ status: 'unhealthy', reason });
  // Logged, naming the file; and it stays refused (only a restart opens what the path names now).
  expect(collector.errors.map((error) => String((error as Error).message))).toContainEqual(expect.stringContaining(`the database file ${collector.file} was`));
  expect((await collector.post('/api/error-reports', report)).status).toBe(503);
};

test('the database file deleted while serving: the next report is refused 503, health answers 503 "the database file was deleted"', async () => {
  collector = createTestCollector();
  expect((await collector.post('/api/error-reports', report)).status).toBe(202);
  expect((await collector.request('/api/health')).status).toBe(200);
  rmSync(collector.file);
  await expectRefused('the database file was deleted');
});

test('the database file replaced by another database while serving: the same, "the database file was replaced"', async () => {
  collector = createTestCollector();
  expect((await collector.post('/api/error-reports', report)).status).toBe(202);
  const other = join(collector.file, '..', 'other.db');
  await createSqliteStore({ file: other }).close();
  renameSync(other, collector.file);
  await expectRefused('the database file was replaced');
  // Group-committed management writes (a key rotation) are refused as reports are.
  await expect(collector.store.sites.rotateKey('default', 'rotated')).rejects.toThrow(/was replaced by another file/);
});
