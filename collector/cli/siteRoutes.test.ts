// `sitebeacon site routes` (docs/vitals.md, "Routes") against a real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { MAX_PATTERNS } from '../core/routes';
import { runCli } from '../testing/runCli';

let dir: string;
let db: string;
let site: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-routes-cli-'));
  db = join(dir, 'sitebeacon.db');
  site = JSON.parse((await runCli(['site', 'add', '--origin', 'https://shop.example', '--json', '--db', db])).out).site_key;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const routes = (...argv: string[]) => runCli(['site', 'routes', '--site', site, ...argv, '--db', db]);

test('--add keeps patterns in order (a trailing / dropped, a second time said), --list and no action list them, --remove removes one', async () => {
  expect((await routes()).out).toBe(`Site ${site} has no route patterns: page URLs are grouped by the default rules.`);
  expect(await routes('--add', '/blog/:slug/')).toMatchObject({ code: 0, out: `Added route pattern /blog/:slug to site ${site}: sessions received from now on are grouped by it.` });
  expect((await routes('--add', '/docs/*', '--json')).out).toBe(JSON.stringify({ site_key: site, added: '/docs/*', patterns: ['/blog/:slug', '/docs/*'] }));
  expect((await routes('--add', '/blog/:slug')).out).toBe(`Site ${site} already has route pattern /blog/:slug.`);
  expect((await routes('--list')).out).toBe('/blog/:slug\n/docs/*');
  expect((await routes('--json')).out).toBe(JSON.stringify({ site_key: site, patterns: ['/blog/:slug', '/docs/*'] }));
  expect((await routes('--remove', '/blog/:slug')).out).toBe(`Removed route pattern /blog/:slug of site ${site}.`);
  const again = await routes('--remove', '/blog/:slug');
  expect([again.code, again.err]).toEqual([1, `sitebeacon: site ${site} has no route pattern "/blog/:slug"`]);
  expect((await routes()).out).toBe('/docs/*');
});

test('hostile or wrong patterns are refused with what is wrong, nothing stored; one action at a time; an unknown site', async () => {
  for (const [pattern, message] of [
    ['blog/:slug', 'starts with /'],
    [`/${'a'.repeat(300)}`, 'at most 200 characters'],
    ['/a?b=1', 'no query'],
    ['/a//b', 'no empty segment'],
    ['/*/x', 'last segment only'],
    ['/blog/:1', 'a parameter is'],
    ['/<script>', 'a segment is'],
  ]) {
    const refused = await routes('--add', pattern!);
    expect(refused.code, pattern).toBe(2);
    expect(refused.err).toContain(message);
  }
  expect((await routes('--add', '/a', '--remove', '/b')).err).toContain('give one of --add, --remove and --list');
  expect((await routes()).out).toContain('has no route patterns');
  const unknown = await runCli(['site', 'routes', '--site', 'nosuchsite', '--add', '/a', '--db', db]);
  expect([unknown.code, unknown.err]).toEqual([1, 'sitebeacon: no site has the key "nosuchsite"']);
});

test(`a site has at most ${MAX_PATTERNS} patterns`, async () => {
  for (let i = 0; i < MAX_PATTERNS; i++) expect((await routes('--add', `/p${i}/:id`)).code).toBe(0);
  const full = await routes('--add', '/one-more');
  expect(full.code).toBe(1);
  expect(full.err).toContain(`has ${MAX_PATTERNS} route patterns, as many as a site may`);
  expect((await routes('--json')).out).toContain('"/p49/:id"]');
});
