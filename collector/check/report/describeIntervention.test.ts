import { expect, test } from 'vitest';
import { describeIntervention } from './describeIntervention';
import type { HttpAnswer } from '../exchange/httpExchange';

const url = new URL('https://collector.example/api/test-connectivity');
const answer = (status: number, headers: Record<string, string>, body: string): HttpAnswer => ({ status, headers, headersDistinct: {}, body, truncated: false });

test('a 403 or an HTML page is a proxy or WAF, named by its headers, with the page title', () => {
  expect(describeIntervention(answer(403, { 'content-type': 'text/html', 'x-sucuri-id': '1' }, '<title>Sucuri WebSite Firewall - Access Denied</title>'), 'GET', url)).toBe(
    'HTTP 403 with an HTML page titled "Sucuri WebSite Firewall - Access Denied" for GET https://collector.example/api/test-connectivity: a proxy or web application firewall (Sucuri) is intervening for this host and path; ask for collector.example/api/test-connectivity to be let through',
  );
  expect(describeIntervention(answer(403, {}, 'Forbidden'), 'GET', url)).toContain('HTTP 403 for GET');
  expect(describeIntervention(answer(200, { 'content-type': 'text/plain' }, '<!DOCTYPE html><title>Log in</title>'), 'GET', url)).toContain('where JSON was expected');
  expect(describeIntervention(answer(407, { via: '1.1 squid' }, ''), 'GET', url)).toContain('a proxy that wants credentials (a Squid proxy)');
});

test("the collector's own JSON answers are not an intervention", () => {
  expect(describeIntervention(answer(403, { 'content-type': 'application/json' }, '{"error":{"code":"origin_not_allowed","message":"…"}}'), 'POST', url)).toBeUndefined();
  expect(describeIntervention(answer(200, { 'content-type': 'application/json' }, '{"status":"success"}'), 'GET', url)).toBeUndefined();
  expect(describeIntervention(answer(404, { 'content-type': 'application/json' }, '{"message":"nope"}'), 'GET', url)).toBeUndefined();
});
