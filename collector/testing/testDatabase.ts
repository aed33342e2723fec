import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';

/** A database (or a schema in one) of its own on the run's PostgreSQL server (postgresGlobalSetup.ts). */
export interface TestDatabase {
  url: string;
  /** Drops it, closing whatever is still connected to it. */
  drop(): Promise<void>;
}

const query = async (url: string, sql: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

const uniqueName = (prefix: string) => `${prefix.replace(/\W/g, '_').toLowerCase()}_${randomBytes(6).toString('hex')}`;

/**
 * Creates an empty database named `prefix_<random>` on the test run's PostgreSQL server.
 *
 * @example
 * const database = await createTestDatabase('contract');
 * const store = await openStore(database.url);
 * await store.close();
 * await database.drop();
 */
export const createTestDatabase = async (prefix = 'test'): Promise<TestDatabase> => {
  const name = uniqueName(prefix);
  // WAL_LOG (the default since PostgreSQL 15), not FILE_COPY: FILE_COPY checkpoints, ten times slower here.
  await query(inject('postgresUrl'), `CREATE DATABASE ${name} TEMPLATE template0`);
  const url = new URL(inject('postgresUrl'));
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => query(inject('postgresUrl'), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
};

/**
 * A schema of its own in `databaseUrl`: the URL sets it as the connections' search_path, so a store
 * opened on it sees an empty database. Much cheaper than a database for each test.
 *
 * @example
 * const schema = await createTestSchema(database.url);
 * const store = await openStore(schema.url);
 */
export const createTestSchema = async (databaseUrl: string, prefix = 'test'): Promise<TestDatabase> => {
  const name = uniqueName(prefix);
  await query(databaseUrl, `CREATE SCHEMA ${name}`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  return { url: url.href, drop: () => query(databaseUrl, `DROP SCHEMA IF EXISTS ${name} CASCADE`) };
};

/**
 * A database for this test file: created before its first test, dropped after its last, whether the
 * tests passed or not. `url` is set once the file's tests run.
 *
 * @example
 * const database = usePostgresDatabase('serve');
 * test('...', async () => { const store = await openStore(database.url); ... });
 */
export const usePostgresDatabase = (prefix = 'test') => {
  const handle = { url: '', schema: (schemaPrefix?: string) => createTestSchema(handle.url, schemaPrefix) };
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(prefix);
    handle.url = database.url;
  });
  afterAll(async () => {
    await database?.drop();
  });
  return handle;
};
