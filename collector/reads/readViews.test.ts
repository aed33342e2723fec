import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CspGroupsViewSchema, DailyViewSchema, ErrorGroupDetailSchema, PagesViewSchema, SiteListSchema, VitalsViewSchema } from '../schemas/answers/readViews';
import { SiteSetupSchema } from '../schemas/answers/siteSetupAnswer';
import { createSqliteStore } from '../store/sqlite';
import { seedStore } from '../testing/seed';
import { rangeOf } from './range';
import { readCspGroups } from './readCspGroups';
import { readDaily } from './readDaily';
import { readErrorGroup } from './readErrorGroup';
import { readPages } from './readPages';
import { readSetup } from './readSetup';
import { readSuggestion } from './readSuggestion';
import { readSites } from './readSites';
import { readVitals } from './readVitals';

const DAY = 86_400_000;
const now = Date.UTC(2026, 5, 10, 12);
const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-views-'));
const store = createSqliteStore({ file: join(dir, 'views.db') });
const seed = seedStore(store);
let site: { site_key: string };
let other: string;

beforeAll(async () => {
  site = { site_key: await seed.addSite(['https://shop.example'], 'Shop') };
  other = await seed.addSite(['https://blog.example'], 'Blog');
  const error = { error_type: 'javascript_error', error_message: 'cart is empty', session_id: 's1', page_url: 'https://shop.example/cart' };
  await seed.insertErrors(site.site_key, [error, { ...error, session_id: 's2' }], now - DAY, 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0');
  await seed.insertCsp(site.site_key, [{ report_type: 'csp-violation', effective_directive: 'img-src', blocked_uri: 'https://cdn.example/x.png', document_uri: 'https://shop.example/' }], now);
  for (const [i, value] of [1200, 2600, 3100].entries()) {
    await seed.upsertSession(site.site_key, { session_id: `p${i}`, page_url: 'https://shop.example/cart', metrics: { LCP: { value } } }, now);
  }
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a range: the default days before now, bounded to the longest series unless a table asks from earlier', () => {
  expect(rangeOf(undefined, now, 7)).toEqual({ since: now - 7 * DAY, now, iso: new Date(now - 7 * DAY).toISOString() });
  expect(rangeOf(0, now, 7).since).toBe(now - 366 * DAY);
  expect(rangeOf(0, now, 7, { bounded: false }).since).toBe(0);
});

test("the sites: a site's key sees its site, an installation key every site, a limited user theirs", async () => {
  const key = (site_key?: string) => ({ id: 1, key_hash: 'h', name: 'k', site_key, created_at: '' });
  expect((await readSites(store, { apiKey: key(other) })).data.map((s) => s.name)).toEqual(['Blog']);
  expect((await readSites(store, { apiKey: key() })).data.map((s) => s.name).sort()).toEqual(['Blog', 'Default site', 'Shop']);
  const user = { id: 1, email: 'ann@shop.example', password_hash: 'x', site_keys: [site.site_key], created_at: '' };
  const sites = await readSites(store, { user });
  expect(sites.data.map((s) => s.name)).toEqual(['Shop']);
  expect(v.is(SiteListSchema, sites)).toBe(true);
});

test('each view answers what its route declares', async () => {
  const since = now - 2 * DAY;
  const daily = await readDaily(store, site, { since, p75: true }, { now });
  expect(v.parse(DailyViewSchema, daily).days.at(-1)).toMatchObject({ csp: 1, page_views: 3, p75: { LCP: 3100 } });
  const csp = await readCspGroups(store, site, { limit: 10 }, { now });
  expect(v.parse(CspGroupsViewSchema, csp)).toMatchObject({ since: new Date(now - 7 * DAY).toISOString(), data: [{ directive: 'img-src', blocked_host: 'cdn.example', disposition: 'report', reports: 1 }] });
  const vitals = await readVitals(store, site, { since }, { now });
  expect(v.parse(VitalsViewSchema, vitals).vitals.LCP).toMatchObject({ samples: 3, p75: 3100, rating: 'needs-improvement' });
  expect(vitals.vitals.INP).toMatchObject({ samples: 0, p75: null, rating: null });
  const pages = await readPages(store, site, { since, limit: 5 }, { now });
  expect(v.parse(PagesViewSchema, pages).data).toMatchObject([{ page_url: 'https://shop.example/cart', sessions: 3 }]);
});

test("one error group: its sessions, latest report, pages and browsers; undefined for a fingerprint with no report in the range", async () => {
  const [row] = await store.errors.groups(site.site_key, { limit: 1 });
  const detail = await readErrorGroup(store, site, { fingerprint: row!.fingerprint, limit: 20 }, { now });
  expect(v.parse(ErrorGroupDetailSchema, detail)).toMatchObject({
    group: { error_message: 'cart is empty', reports: 2, sessions: 2 },
    latest: { error_message: 'cart is empty' },
    pages: [{ page_url: 'https://shop.example/cart', reports: 2 }],
    browsers: [{ browser: 'Firefox 128 · Linux · desktop', reports: 2 }],
  });
  expect(await readErrorGroup(store, site, { fingerprint: row!.fingerprint, since: now, limit: 20 }, { now })).toBeUndefined();
});

test("the setup: generated URLs, the integrity given, and the last connectivity check of 30 days, not an older one", async () => {
  const blog = (await store.sites.get(other))!;
  const check = (machine: string) => ({ error_type: 'connectivity_check', error_message: `sitebeacon check from ${machine}` });
  await seed.insertErrors(other, [check('old')], now - 31 * DAY);
  const links = { appUrl: () => 'https://app.example' };
  expect((await readSetup(store, blog, { links }, { now })).last_connectivity_check).toBeNull();
  await seed.insertErrors(other, [check('ci')], now - 2 * DAY);
  await seed.insertErrors(other, [check('deploy')], now - DAY);
  const setup = await readSetup(store, blog, { links, integrity: 'sha384-x' }, { now });
  expect(v.parse(SiteSetupSchema, setup)).toMatchObject({
    site_key: other,
    name: 'Blog',
    api_base: 'https://app.example/api',
    integrity: 'sha384-x',
    wordpress: null,
    agents: [],
    last_connectivity_check: { at: new Date(now - DAY).toISOString(), message: 'sitebeacon check from deploy', reports: 1 },
  });
});

test("a CSP project's suggestion: the site's violations as evidence, counted, with whether some were left out", async () => {
  const suggestion = await readSuggestion(store, { id: 0, site_key: site.site_key, base_policy: "default-src 'self'" });
  expect(suggestion.policy).toContain('https://cdn.example');
  expect(suggestion.evidence).toMatchObject({ groups: 1, truncated: false });
});
