import type { Flag } from './defineCommand';

/** `--json`, which every command takes; a command may declare its own to say what it prints. */
export const JSON_FLAG = { type: 'boolean', help: 'machine-readable output (JSON)' } as const satisfies Flag;

/** `-h, --help`: handled before the command runs, which then does nothing else. */
export const HELP_FLAG = { type: 'boolean', help: 'this help; the command does nothing else' } as const satisfies Flag;

/**
 * Where a command's data is (README, "The collector"); the command reads the variables itself,
 * in databaseLocation's order (args.ts): a flag naming one database hides the other's variable.
 */
export const DATABASE_FLAGS = {
  db: {
    type: 'string',
    value: 'FILE',
    env: 'SITEBEACON_DB',
    envReadByCommand: true,
    help: 'the SQLite file (default `./data/sitebeacon.db`)',
  },
  'database-url': {
    type: 'string',
    value: 'URL',
    env: 'SITEBEACON_DATABASE_URL',
    envReadByCommand: true,
    help: 'PostgreSQL instead, `postgres://USER:PASSWORD@HOST:PORT/DB` (see [Several collectors on PostgreSQL](#several-collectors-on-postgresql)); giving both is a usage error',
  },
} as const satisfies Record<string, Flag>;

/** Where the collector is reached, for the URLs a command prints or hands out (`serve`, `site add`, `snippet`, `site rotate-key`). */
export const LINK_FLAGS = {
  'public-url': {
    type: 'string',
    value: 'URL',
    env: 'SITEBEACON_PUBLIC_URL',
    help: 'the address browsers and the dashboard use (default: where `serve` listens, `http://HOST:PORT`; for the other commands `http://127.0.0.1:8787`)',
  },
  'ingest-url': {
    type: 'string',
    value: 'URL',
    env: 'SITEBEACON_INGEST_URL',
    help: 'a dedicated collection host: snippets, the WordPress plugin and agents collect at `URL/api` (`--public-url` stays the app address)',
  },
} as const satisfies Record<string, Flag>;
