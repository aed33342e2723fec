import { existsSync } from 'node:fs';
import pg from 'pg';
import { expect, test } from 'vitest';
import { startPostgresServer } from './postgresServer.mjs';
import { createTestDatabase } from './testDatabase';

const query = async (url: string, sql: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
};

test('a throw-away server starts on loopback, and stop() ends it and removes its folder', async () => {
  const server = await startPostgresServer();
  const url = server.url('postgres');
  const [{ dir }] = (await query(url, "SELECT setting AS dir FROM pg_settings WHERE name = 'data_directory'")) as [{ dir: string }];
  expect(existsSync(dir)).toBe(true);
  expect(new URL(url).hostname).toBe('127.0.0.1');
  server.stop();
  expect(existsSync(dir)).toBe(false);
  await expect(query(url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
  server.stop();
}, 30_000); // initdb and a start: a second alone, more on a busy machine

test("each test database is a database of its own, and drop() removes it while it is in use", async () => {
  const [one, two] = await Promise.all([createTestDatabase('infra'), createTestDatabase('infra')]);
  expect(one.url).not.toBe(two.url);
  await query(one.url, 'CREATE TABLE only_here (x int)');
  await expect(query(two.url, 'SELECT * FROM only_here')).rejects.toThrow(/does not exist/);
  const held = new pg.Client({ connectionString: one.url });
  await held.connect();
  held.on('error', () => {});
  await one.drop();
  await expect(query(one.url, 'SELECT 1')).rejects.toThrow(/does not exist/);
  await two.drop();
});
