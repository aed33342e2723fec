import type { Page, Store } from '../store/contract';
import { databaseLocation, UsageError, withStore } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';

const KINDS = ['errors', 'csp', 'performance'] as const;
type Kind = (typeof KINDS)[number];

const PAGE_SIZE = 1000;

/**
 * `sitebeacon export --site SITE_KEY --kind errors|csp|performance [--since ISO]`: stored records as NDJSON, oldest first.
 * Read-only: a database that needs `sitebeacon migrate` is refused, not migrated.
 */
export const exportRecords = defineCommand({
  name: ['export'],
  summary: 'print stored records as NDJSON (read-only: never migrates)',
  help:
    "prints stored records as NDJSON, oldest first; read-only, like `snippet`: a database whose schema is older than this sitebeacon's is refused " +
    '(exit 1, naming the `sitebeacon migrate` to run), never migrated',
  flags: {
    site: { type: 'string', value: 'SITE_KEY', required: true, help: 'the site whose records to print' },
    kind: { type: 'string', value: KINDS.join('|'), required: true, help: 'which records' },
    since: { type: 'string', value: 'ISO', help: 'only the records received since this time' },
    ...DATABASE_FLAGS,
  },
  run: async ({ values }, io) => {
    const siteKey = values.site!;
    const kind = values.kind as Kind;
    if (!KINDS.includes(kind)) throw new UsageError(`export needs --kind ${KINDS.join('|')}`);
    const since = values.since === undefined ? undefined : Date.parse(values.since);
    if (Number.isNaN(since)) throw new UsageError(`--since ${values.since} is not an ISO date`);
    await withStore(databaseLocation(values, io), async (store: Store) => {
      if (!(await store.sites.get(siteKey))) throw new Error(`no site has the key "${siteKey}"`);
      const records = { errors: store.errors, csp: store.csp, performance: store.performance }[kind];
      for (let cursor: string | undefined; ; ) {
        const page: Page<unknown> = await records.list(siteKey, { since, cursor, limit: PAGE_SIZE });
        for (const record of page.data) io.out(JSON.stringify(record));
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
      }
    }, { readOnly: true });
  },
});
