import type { TestProject } from 'vitest/node';
import { startPostgresServer } from './postgresServer.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throw-away server's maintenance database: test files create their own beside it (testDatabase.ts). */
    postgresUrl: string;
  }
}

/**
 * vitest globalSetup: one PostgreSQL server for the whole run, started before any test file and
 * stopped (and its folder removed) after the last, whether tests passed or not. Each test file
 * makes its own databases on it (testDatabase.ts).
 */
export default async function setup(project: TestProject) {
  const server = await startPostgresServer();
  project.provide('postgresUrl', server.url('postgres'));
  return () => server.stop();
}
