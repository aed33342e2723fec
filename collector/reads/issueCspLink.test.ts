import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COPY_WINDOW_MS } from '../core/cspCopies';
import { fingerprintOf } from '../core/fingerprint';
import type { Store } from '../store/contract';
import { createPostgresStore } from '../store/postgres';
import { createSqliteStore } from '../store/sqlite';
import { seedStore } from '../testing/seed';
import { usePostgresDatabase, type TestDatabase } from '../testing/testDatabase';
import { readIssue } from './readIssue';
import { readIssues } from './readIssues';

const now = Date.UTC(2026, 10, 27, 12);
const postgres = usePostgresDatabase('issue_csp_link');
const PAGE = 'https://shop.example/cart?step=2';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0';
// As Firefox ESR 153 sends them (collector/fixtures/firefox-esr-153/beacon.json): the beacon's failed load, the browser's violation.
const SCRIPT = { error_type: 'resource_error', error_message: 'script failed to load', page_url: PAGE, source_url: 'https://ads.example.org/a.js' };
const IMAGE = { error_type: 'resource_error', error_message: 'img failed to load', page_url: PAGE, source_url: 'https://cdn.example.net/x.png' };
const violation = (directive: string, blocked: string) => ({
  report_type: 'csp-violation', document_uri: PAGE, effective_directive: directive, violated_directive: directive, blocked_uri: blocked, disposition: 'enforce',
});

/** The link between a failed load and the violation that explains it, read on one store. */
const describeLink = (name: string, make: () => Promise<{ store: Store; close: () => Promise<void> }>) =>
  describe(name, () => {
    let made: Awaited<ReturnType<typeof make>>;
    let site: { site_key: string };
    beforeAll(async () => {
      made = await make();
      const seed = seedStore(made.store);
      site = { site_key: await seed.addSite(['https://shop.example']) };
      await seed.insertErrors(site.site_key, [SCRIPT, IMAGE], now - 60_000, FIREFOX);
      // The script's violation comes a minute later (a batched report), the image's past the window.
      await seed.insertCsp(site.site_key, [violation('script-src-elem', 'https://ads.example.org/a.js')], now, FIREFOX);
      await seed.insertCsp(site.site_key, [violation('img-src', 'https://cdn.example.net/x.png')], now - 60_000 + COPY_WINDOW_MS + 1, FIREFOX);
    });
    afterAll(() => made.close());

    test("the list's item and the issue carry the violation that explains a failed load; one too far apart in time none", async () => {
      const query = { status: 'all' as const, sort: 'last_seen' as const, limit: 25, since: now - 3_600_000, bots: 'include' as const };
      const { items } = await readIssues(made.store, site, query, { now: now + COPY_WINDOW_MS + 1 });
      const byFingerprint = new Map(items.map((item) => [item.fingerprint, item.csp_violation]));
      expect(byFingerprint.get(fingerprintOf(SCRIPT))).toEqual({ directive: 'script-src-elem', blocked_url: 'https://ads.example.org/a.js', received_at: new Date(now).toISOString() });
      expect(byFingerprint.get(fingerprintOf(IMAGE))).toBeNull();
      const issue = await readIssue(made.store, site, { fingerprint: fingerprintOf(SCRIPT), bots: 'include', since: now - 3_600_000 });
      expect(issue?.csp_violation).toMatchObject({ directive: 'script-src-elem' });
    });
  });

describeLink('SQLite', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'sitebeacon-csp-link-'));
  const store = createSqliteStore({ file: join(directory, 'db.sqlite') });
  return { store, close: async () => { await store.close(); rmSync(directory, { recursive: true, force: true }); } };
});

describeLink('PostgreSQL', async () => {
  const schema: TestDatabase = await postgres.schema('issue_csp_link');
  const store = await createPostgresStore({ url: schema.url });
  return { store, close: async () => { await store.close(); await schema.drop(); } };
});
