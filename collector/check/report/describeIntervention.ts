import type { HttpAnswer } from '../exchange/httpExchange';
import { printable } from './printable';
import { readHtml } from '../page/readHtml';

const header = (answer: HttpAnswer, name: string) => {
  const value = answer.headers[name];
  return (Array.isArray(value) ? value.join(', ') : value ?? '').toLowerCase();
};

/** Who answered, when the headers say: the WAF, CDN or proxy products seen most often. */
const answeredBy = (answer: HttpAnswer): string | undefined => {
  const server = header(answer, 'server');
  const via = header(answer, 'via');
  if (header(answer, 'cf-ray') || server.includes('cloudflare')) return 'Cloudflare';
  if (header(answer, 'x-sucuri-id') || server.includes('sucuri')) return 'Sucuri';
  if (server.includes('akamai')) return 'Akamai';
  if (header(answer, 'x-iinfo') || header(answer, 'x-cdn').includes('imperva')) return 'Imperva';
  if (header(answer, 'x-amzn-waf-action') || server.includes('awselb')) return 'AWS WAF';
  if (server.includes('zscaler')) return 'Zscaler';
  if (server.includes('squid') || via.includes('squid') || header(answer, 'x-squid-error')) return 'a Squid proxy';
  if (server.includes('bigip') || server.includes('big-ip')) return 'F5 BIG-IP';
  if (via) return `a proxy (Via: ${printable(via, 80)})`;
  return undefined;
};

/** The answer is an HTML document (by its type, or by its first bytes when the type lies). */
export const looksLikeHtml = (answer: HttpAnswer) =>
  header(answer, 'content-type').includes('html') || /^\s*(<!doctype html|<html|<head|<body|<title)/i.test(answer.body.slice(0, 512));

/** A collector's own error body, `{"error":{"code":…}}` (docs/responses.md). */
const isCollectorError = (answer: HttpAnswer) => {
  try {
    return typeof (JSON.parse(answer.body) as { error?: { code?: unknown } })?.error?.code == 'string';
  } catch {
    return false;
  }
};

/**
 * Spec section 7, "HTTP 403 or an HTML challenge page: a proxy or web application firewall is
 * intervening for that host and path". Returns the sentence naming it, with the page's title and,
 * when the headers show it, the product; `undefined` when the answer is not such an intervention.
 * A JSON 403 from the collector itself (`origin_not_allowed`, `forbidden`) is not one.
 *
 * @example
 * describeIntervention({ status: 403, headers: { 'content-type': 'text/html' }, headersDistinct: {}, body: '<title>Attention Required!</title>', truncated: false },
 *   'GET', new URL('https://collector.example/api/test-connectivity'));
 * // 'HTTP 403 with an HTML page titled "Attention Required!" for GET https://collector.example/api/test-connectivity: a proxy or …'
 */
export const describeIntervention = (answer: HttpAnswer, method: string, url: URL): string | undefined => {
  const html = looksLikeHtml(answer);
  if (!html && answer.status != 407 && (answer.status != 403 || isCollectorError(answer))) return undefined;
  const title = html ? readHtml(answer.body).title : '';
  const page = html ? ` with an HTML page${title ? ` titled "${printable(title, 120)}"` : ' (no title)'}` : '';
  const expected = html && answer.status != 403 ? ' where JSON was expected' : '';
  const by = answeredBy(answer);
  const what = answer.status == 407 ? 'a proxy that wants credentials' : 'a proxy or web application firewall';
  return `HTTP ${answer.status}${page}${expected} for ${method} ${url.href}: ${what}${by ? ` (${by})` : ''} is intervening for this host and path; ask for ${url.host}${url.pathname} to be let through`;
};
