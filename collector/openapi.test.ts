import { afterAll, expect, test } from 'vitest';
import { createTestCollector } from './testing/testCollector';

const collector = createTestCollector();
afterAll(() => collector.close());

/**
 * Every operation the app serves: method and path in OpenAPI's form; the 405 refusals of other
 * methods are not operations, nor the HEAD each GET answers (OpenAPI lists the GET alone).
 */
const registeredOperations = () =>
  (collector.app as unknown as { '~routes': Array<{ route?: string; method?: string; meta?: { methodNotAllowed?: boolean; headOfGet?: boolean } }> })['~routes']
    .filter((route) => route.method && route.route && !route.meta?.methodNotAllowed && !route.meta?.headOfGet)
    .map((route) => `${route.method!.toLowerCase()} ${route.route!.replace(/:(\w+)/g, '{$1}')}`)
    .sort();

test('GET /api/openapi.json is an OpenAPI 3.1 document that names exactly the registered operations', async () => {
  const response = await collector.request('/api/openapi.json');
  expect(response.status).toBe(200);
  const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
  expect(document.openapi).toBe('3.1.0');
  const documented = Object.entries(document.paths)
    .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`))
    .sort();
  expect(documented).toEqual(registeredOperations());
});

test('request bodies come from the validating schemas', async () => {
  const document = (await (await collector.request('/api/openapi.json')).json()) as any;
  const register = document.paths['/api/v1/wordpress/register'].post.requestBody.content['application/json'].schema;
  expect(register.required).toEqual(['site_url']);
  expect(Object.keys(register.properties)).toEqual(['site_url', 'site_name', 'plugin_version', 'wordpress_version', 'php_version']);
  const errors = document.paths['/api/error-reports/{site_key}'].post.requestBody.content['text/plain'].schema;
  expect(errors.oneOf[0].required).toEqual(['error_type', 'error_message']);
});

test("error reports' causes are documented: accepted on ingest (at most 5), returned with an error group's latest report", async () => {
  const document = (await (await collector.request('/api/openapi.json')).json()) as any;
  const body = document.paths['/api/error-reports/{site_key}'].post.requestBody.content['application/json'].schema;
  const causes = body.oneOf[0].properties.causes;
  expect(causes).toMatchObject({ type: 'array', maxItems: 5, items: { type: 'object', required: ['error_message'] } });
  expect(Object.keys(causes.items.properties)).toEqual(['error_name', 'error_message', 'stack', 'aggregate']);
  const detail = document.paths['/api/v1/sites/{site_key}/error-groups/{fingerprint}'].get.responses['200'].content['application/json'].schema;
  const latest = detail.properties.latest.anyOf[0];
  expect(latest.properties.causes).toMatchObject({ type: 'array', maxItems: 5, items: causes.items });
  expect(detail.properties.latest.anyOf[1]).toEqual({ type: 'null' });
});
