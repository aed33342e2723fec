import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { EARLY_STUB } from '../../beacon/lib/earlyStub';
import { cspSources, earlyStubSource, setupUrls, siteSetup, snippet } from './setupUrls';

const links = { appUrl: () => 'https://app.example/', ingestUrl: () => 'https://in.example' };
const urls = setupUrls(links);
const tag = '<script src="https://in.example/beacon.js" data-site-key="k1" data-ingest-origin="https://in.example" async></script>';

test('the snippet is the early-capture stub, then the plain async tag on the next line', () => {
  expect(snippet(urls, 'k1')).toBe(`<script>${EARLY_STUB}</script>\n${tag}`);
});

test('stub: false gives the plain async tag alone, with or without integrity', () => {
  expect(snippet(urls, 'k1', { stub: false })).toBe(tag);
  expect(snippet(urls, 'k1', { stub: false, integrity: 'sha384-abc' })).toBe(
    '<script src="https://in.example/beacon.js" data-site-key="k1" data-ingest-origin="https://in.example" integrity="sha384-abc" crossorigin="anonymous" async></script>',
  );
  expect(snippet(urls, 'k1', { integrity: 'sha384-abc' })).toBe(`<script>${EARLY_STUB}</script>\n${snippet(urls, 'k1', { stub: false, integrity: 'sha384-abc' })}`);
});

test('the stub cannot end its script element early nor open a comment inside it', () => {
  expect(EARLY_STUB).not.toMatch(/<\/script|<!--/i);
});

test("the stub's CSP source is the base64 SHA-256 of the exact text between its tags, quoted as CSP writes it", () => {
  expect(earlyStubSource()).toBe(`'sha256-${createHash('sha256').update(EARLY_STUB).digest('base64')}'`);
  const [, inline] = /^<script>(.*)<\/script>\n/.exec(snippet(urls, 'k1'))!;
  expect(`'sha256-${createHash('sha256').update(inline!).digest('base64')}'`).toBe(earlyStubSource());
});

test("the CSP sources: the beacon's host and the stub's hash in script-src, the collection host in connect-src; without the stub, no hash", () => {
  expect(cspSources(urls)).toEqual({ 'script-src': ['https://in.example', earlyStubSource()], 'connect-src': ['https://in.example'] });
  expect(cspSources(urls, { stub: false })).toEqual({ 'script-src': ['https://in.example'], 'connect-src': ['https://in.example'] });
});

test('the setup carries both snippets, the same integrity in each, and the sources with the hash', () => {
  const setup = siteSetup(links, { site_key: 'k1', allowed_origins: ['https://shop.example'] }, 'sha384-abc');
  expect(setup.snippet).toBe(snippet(urls, 'k1', { integrity: 'sha384-abc' }));
  expect(setup.snippet_without_stub).toBe(snippet(urls, 'k1', { integrity: 'sha384-abc', stub: false }));
  expect(setup.csp_sources['script-src']).toContain(earlyStubSource());
});

test('the README and docs/early-capture.md show the stub the builder generates, byte for byte', () => {
  for (const doc of ['../../README.md', '../../docs/early-capture.md']) {
    expect(readFileSync(new URL(doc, import.meta.url), 'utf8')).toContain(`<script>${EARLY_STUB}</script>\n<script src=`);
  }
});
