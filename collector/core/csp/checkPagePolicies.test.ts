// What `sitebeacon check --page` decides (docs/connectivity-check.md): does every policy of a page let the beacon
// send to the collector (connect-src) and load its script (script-src-elem)?
import { expect, test } from 'vitest';
import { checkPagePolicies } from './checkPagePolicies';

const pageUrl = 'https://shop.example/cart';
const collectorOrigin = 'https://in.example';
const scriptUrl = 'https://in.example/beacon.js';
const check = (policies: string[], extra: { scriptIntegrity?: string } = {}) =>
  checkPagePolicies({ policies, pageUrl, collectorOrigin, scriptUrl, ...extra });

test('no policy restricts anything: both allowed', () => {
  expect(check([]).map(({ allowed }) => allowed)).toEqual([true, true]);
  expect(check(["img-src 'self'"]).map(({ allowed }) => allowed)).toEqual([true, true]);
});

test('connect-src falls back to default-src, and script-src-elem to script-src then default-src', () => {
  const [connect, script] = check(["default-src 'self'; script-src 'self' https://in.example"]);
  expect(connect).toEqual({
    directive: 'connect-src',
    url: 'https://in.example/',
    allowed: false,
    sourceToAdd: 'https://in.example',
    blockedBy: [{ policy: 0, directive: 'default-src' }],
  });
  expect(script).toMatchObject({ directive: 'script-src-elem', allowed: true, blockedBy: [] });
});

test('every policy applies: a header policy that allows and a meta policy that blocks still block', () => {
  const header = "default-src 'self' https://in.example";
  const meta = "connect-src 'self'; script-src-elem https://*.example";
  const [connect, script] = check([header, meta]);
  expect(connect).toMatchObject({ allowed: false, sourceToAdd: 'https://in.example', blockedBy: [{ policy: 1, directive: 'connect-src' }] });
  expect(script).toMatchObject({ allowed: true });
});

test("a collector on the page's own origin is 'self'; 'none' must be replaced, not added to", () => {
  const [connect, script] = checkPagePolicies({
    policies: ["connect-src 'none'; script-src 'none'"],
    pageUrl,
    collectorOrigin: 'https://shop.example',
    scriptUrl: 'https://shop.example/beacon.js',
  });
  expect(connect).toMatchObject({ allowed: false, sourceToAdd: "'self'", note: "replace 'none' rather than add beside it" });
  expect(script).toMatchObject({ allowed: false, sourceToAdd: "'self'", blockedBy: [{ policy: 0, directive: 'script-src' }] });
});

test("'strict-dynamic' ignores hosts: the script is allowed by its integrity hash, which is what to add", () => {
  const policy = "connect-src https:; script-src 'strict-dynamic' 'nonce-r4nd0m' https://in.example";
  const [connect, script] = check([policy], { scriptIntegrity: 'sha384-abc+/=' });
  expect(connect).toMatchObject({ allowed: true });
  expect(script).toMatchObject({ allowed: false, sourceToAdd: "'sha384-abc+/='" });
  expect(check([policy])[1]).toMatchObject({ allowed: false, note: "'strict-dynamic' ignores host sources: allow the script tag by its integrity hash or a nonce" });
  expect(check([`${policy} 'sha384-abc+/='`], { scriptIntegrity: 'sha384-abc+/=' })[1]).toMatchObject({ allowed: true });
});

test('an http collector is not allowed by https: sources (no downgrade), and wildcards match subdomains only', () => {
  const result = checkPagePolicies({
    policies: ['default-src https: *.cdn.example'],
    pageUrl,
    collectorOrigin: 'http://in.example',
    scriptUrl: 'https://js.cdn.example/beacon.js',
  });
  expect(result.map(({ allowed }) => allowed)).toEqual([false, true]);
  expect(result[0]!.sourceToAdd).toBe('http://in.example');
});
