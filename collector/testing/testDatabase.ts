import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** A database of its own on the run's PostgreSQL server (postgresGlobalSetup.ts). */
export interface TestDatabase {
  url: string;
  /** Drops the database, closing whatever is still connected to it. */
  drop(): Promise<void>;
}

const admin = async <T>(work: (client: pg.Client) => Promise<T>) => {
  const client = new pg.Client({ connectionString: inject('postgresUrl') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

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
  const name = `${prefix.replace(/\W/g, '_').toLowerCase()}_${randomBytes(6).toString('hex')}`;
  // FILE_COPY: a copy of the (tiny) template's files, faster than WAL_LOG's page by page for an empty database.
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE template0 STRATEGY FILE_COPY`));
  const url = new URL(inject('postgresUrl'));
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
};
