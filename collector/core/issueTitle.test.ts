import { expect, test } from 'vitest';
import { cleanResourceUrl, issueTitle, MAX_TITLE, SCRIPT_ERROR_EXPLANATION } from './issueTitle';

test('a resource error is titled with the failing URL, without credentials, query or fragment', () => {
  const title = issueTitle({ error_type: 'resource_error', error_message: 'script failed to load', source_url: 'https://user:pw@cdn.example/app.js?sig=secret#top' });
  expect(title).toEqual({ title: 'Failed to load https://cdn.example/app.js', explanation: null });
});

test('a long or odd resource URL is bounded, a data: URL shows its scheme only', () => {
  const long = cleanResourceUrl(`https://cdn.example/${'a'.repeat(500)}.js`);
  expect(long.length).toBeLessThanOrEqual(160);
  expect(long.endsWith('…')).toBe(true);
  expect(cleanResourceUrl('data:image/png;base64,AAAA')).toBe('data:…');
  expect(cleanResourceUrl('/relative/app.js?v=1')).toBe('/relative/app.js');
});

test('a resource error without a URL keeps its message', () => {
  expect(issueTitle({ error_type: 'resource_error', error_message: 'img failed to load' }).title).toBe('img failed to load');
});

test('"Script error." keeps the browser\'s words and explains the fix: crossorigin on the tag, Access-Control-Allow-Origin on the response', () => {
  for (const message of ['Script error.', 'Script error', 'script error.']) {
    const { title, explanation } = issueTitle({ error_type: 'javascript_error', error_message: message });
    expect(title).toBe('Script error.');
    expect(explanation).toBe(SCRIPT_ERROR_EXPLANATION);
  }
  expect(SCRIPT_ERROR_EXPLANATION).toContain('crossorigin');
  expect(SCRIPT_ERROR_EXPLANATION).toContain('Access-Control-Allow-Origin');
});

test('an error is its name and the first line of its message, once', () => {
  expect(issueTitle({ error_type: 'javascript_error', error_name: 'TypeError', error_message: 'x is undefined\n  more' }).title).toBe('TypeError: x is undefined');
  expect(issueTitle({ error_type: 'javascript_error', error_name: 'TypeError', error_message: 'TypeError: x is undefined' }).title).toBe('TypeError: x is undefined');
  expect(issueTitle({ error_type: 'manual', error_message: '  checkout   failed ' }).title).toBe('checkout failed');
  expect(issueTitle({ error_type: 'unhandled_rejection', error_message: '' }).title).toBe('unhandled_rejection');
  expect(issueTitle({ error_type: 'javascript_error', error_name: 'AbortError', error_message: '' }).title).toBe('AbortError');
});

test('a long message is bounded', () => {
  const { title } = issueTitle({ error_type: 'javascript_error', error_message: 'x'.repeat(5000) });
  expect(title.length).toBe(MAX_TITLE);
  expect(title.endsWith('…')).toBe(true);
});
