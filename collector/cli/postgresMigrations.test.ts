// On PostgreSQL as on SQLite (readOnlyCommands.test.ts): `serve` logs each schema version it
// applies, one line each, and a read-only command refuses an older schema instead of migrating it.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { runCli } from '../testing/runCli';
import { migratePostgres } from '../store/postgres/migrations';
import { createPool } from '../store/postgres/pool';
import { POSTGRES_MIGRATIONS } from '../store/postgres/schema';
import { usePostgresDatabase, type TestDatabase } from '../testing/testDatabase';

const database = usePostgresDatabase('cli_migrations');
let schema: TestDatabase;
beforeEach(async () => {
  schema = await database.schema('cli_migrations');
});
afterEach(() => schema.drop());

const cli = (argv: string[], onStop?: (stop: () => void) => void) => runCli([...argv, '--database-url', schema.url], { onStop });

test('export refuses a PostgreSQL schema older than this sitebeacon, naming `sitebeacon migrate`, and migrates nothing', async () => {
  const pool = createPool(schema.url, { max: 1 });
  try {
    await migratePostgres(pool, POSTGRES_MIGRATIONS.length - 1);
    const { code, err } = await cli(['export', '--site', 'default', '--kind', 'errors']);
    expect(code).toBe(1);
    expect(err).toContain(`has schema version ${POSTGRES_MIGRATIONS.length - 1}, older than this sitebeacon's (${POSTGRES_MIGRATIONS.length})`);
    expect(err).toContain('sitebeacon migrate --database-url URL');
    const { rows } = await pool.query<{ version: number }>('SELECT max(version) AS version FROM sitebeacon_schema');
    expect(rows[0]!.version).toBe(POSTGRES_MIGRATIONS.length - 1);
  } finally {
    await pool.end();
  }
});

test('serve on an empty PostgreSQL database logs every schema version it applies, one line each', async () => {
  const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  try {
    let stop = () => {};
    const served = await cli(['serve', '--port', '0', '--json'], (s) => (stop = s));
    stop();
    await vi.waitFor(() => expect(exit).toHaveBeenCalled(), { timeout: 10_000 });
    expect(served.code).toBe(0);
    const applied = served.err
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { message?: string }).message ?? '')
      .filter((message) => message.startsWith('applied schema version'))
      .map((message) => Number(/version (\d+)/.exec(message)![1]));
    expect(applied).toEqual(POSTGRES_MIGRATIONS.map((_, index) => index + 1));
  } finally {
    exit.mockRestore();
  }
});
