// @vitest-environment happy-dom
import { expect, test } from 'vitest';
import { scriptOptions } from './scriptOptions';

test('all three captures by default; the endpoint attributes pass as options', () => {
  const options = scriptOptions({ siteKey: 'KEY', ingestOrigin: 'https://in.example', apiBase: 'https://a.example/api', errorEndpoint: 'https://e.example/x' });
  expect(options).toMatchObject({ siteKey: 'KEY', ingestOrigin: 'https://in.example', apiBase: 'https://a.example/api', errorEndpoint: 'https://e.example/x' });
  expect(options.capture).toHaveLength(3);
});

test('data-capture chooses captures; unknown names, even Object.prototype ones, choose nothing', () => {
  expect(scriptOptions({ siteKey: 'K', capture: 'errors, csp' }).capture).toHaveLength(2);
  expect(scriptOptions({ siteKey: 'K', capture: 'constructor,toString,nothing' }).capture).toEqual([]);
  expect(scriptOptions({ siteKey: 'K', capture: '' }).capture).toEqual([]);
});
