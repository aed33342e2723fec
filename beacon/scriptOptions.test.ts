// @vitest-environment happy-dom
import { expect, test } from 'vitest';
import { scriptOptions } from './scriptOptions';

const tag = (attributes: Record<string, string>, src = 'https://in.example/beacon.js') => {
  const script = document.createElement('script');
  if (src) script.src = src;
  for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
  return script;
};

test('all three captures by default; the endpoint attributes pass as options', () => {
  const options = scriptOptions(
    tag({ 'data-site-key': 'KEY', 'data-ingest-origin': 'https://in.example', 'data-api-base': 'https://a.example/api', 'data-error-endpoint': 'https://e.example/x' }),
  );
  expect(options).toMatchObject({ siteKey: 'KEY', ingestOrigin: 'https://in.example', apiBase: 'https://a.example/api', errorEndpoint: 'https://e.example/x' });
  expect(options.capture).toHaveLength(3);
});

test('data-capture chooses captures; unknown names, even Object.prototype ones, choose nothing', () => {
  expect(scriptOptions(tag({ 'data-site-key': 'K', 'data-capture': 'errors, csp' })).capture).toHaveLength(2);
  expect(scriptOptions(tag({ 'data-site-key': 'K', 'data-capture': 'constructor,toString,nothing' })).capture).toEqual([]);
  expect(scriptOptions(tag({ 'data-site-key': 'K', 'data-capture': '' })).capture).toEqual([]);
});

test('vitals are not captured when the sample rate is 0, nor from a copy of the script that has no file name to go by', () => {
  expect(scriptOptions(tag({ 'data-site-key': 'K', 'data-sample-rate': '0' })).capture).toHaveLength(2);
  expect(scriptOptions(tag({ 'data-site-key': 'K', 'data-sample-rate': '0.5' })).capture).toHaveLength(3);
  // An inline copy (no src) and a src without .js cannot name the second script.
  expect(scriptOptions(tag({ 'data-site-key': 'K' }, '')).capture).toHaveLength(2);
  expect(scriptOptions(tag({ 'data-site-key': 'K' }, 'https://in.example/sb')).capture).toHaveLength(2);
});
