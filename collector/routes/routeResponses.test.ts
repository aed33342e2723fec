import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { afterAll, expect, test } from 'vitest';
import { collectorRoutes } from '../app';
import { ApiErrorBodySchema } from '../http/apiErrorBody';
import type { Route } from '../http/route';
import { jsonSchemaOf } from '../openapi/jsonSchemaOf';
import { createTestCollector } from '../testing/testCollector';

const collector = createTestCollector();
afterAll(() => collector.close());

const routes: Route[] = collectorRoutes({
  store: collector.store,
  beaconFile: fileURLToPath(new URL('../../dist/beacon.min.js', import.meta.url)),
  links: { appUrl: () => 'http://127.0.0.1:8787' },
  demo: { siteKey: 'demo' },
});
const name = (route: Route) => `${route.method} ${route.path}`;
/** Successes that have no body by definition. */
const BODYLESS = new Set([204, 304]);

/** The places in a JSON Schema where an object says nothing of what it holds. */
const bareObjects = (schema: unknown, path = '#'): string[] => {
  if (Array.isArray(schema)) return schema.flatMap((item, index) => bareObjects(item, `${path}/${index}`));
  if (!schema || typeof schema != 'object') return [];
  const node = schema as Record<string, unknown>;
  const isObject = node.type == 'object' || (Array.isArray(node.type) && node.type.includes('object'));
  const bare = isObject && !('properties' in node) && !('additionalProperties' in node) ? [path] : [];
  return [...bare, ...Object.entries(node).flatMap(([key, value]) => bareObjects(value, `${path}/${key}`))];
};

test('every route declares its success: a JSON schema or a Content-Type for each 2xx with a body', () => {
  const undeclared = routes.flatMap((route) => {
    const successes = Object.entries(route.responses).filter(([status, doc]) => doc !== undefined && Number(status) < 300);
    if (!successes.length) return [`${name(route)}: no success`];
    return successes.flatMap(([status, doc]) =>
      BODYLESS.has(Number(status)) || (typeof doc == 'object' && (doc.schema || doc.contentType)) ? [] : [`${name(route)} ${status}: no schema`],
    );
  });
  expect(undeclared).toEqual([]);
});

test('no declared answer is a bare object: every object names its properties, or what each of its values is', () => {
  const bare = routes.flatMap((route) =>
    Object.entries(route.responses).flatMap(([status, doc]) =>
      typeof doc == 'object' && doc.schema ? bareObjects(jsonSchemaOf(doc.schema)).map((path) => `${name(route)} ${status} ${path}`) : [],
    ),
  );
  expect(bare).toEqual([]);
});

test('the OpenAPI document carries those schemas: no JSON success answer falls back to a bare object', async () => {
  const document = (await (await collector.request('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
  };
  const bare = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, { responses }]) =>
      Object.entries(responses).flatMap(([status, { content = {} }]) =>
        Object.values(content).flatMap(({ schema }) => (schema ? bareObjects(schema).map((at) => `${method} ${path} ${status} ${at}`) : [])),
      ),
    ),
  );
  expect(bare).toEqual([]);
  const daily = document.paths['/api/v1/sites/{site_key}/daily']!.get!.responses['200']!.content!['application/json']!.schema as { required: string[] };
  expect(daily.required).toEqual(['site_key', 'since', 'until', 'days', 'hours', 'totals', 'previous']);
});

test('refusals keep the one error shape the document declares once (components.schemas.Error)', async () => {
  const refusals = await Promise.all([
    collector.request('/api/nothing-here'),
    collector.request('/api/v1/sites'),
    collector.request('/api/error-reports', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } }),
  ]);
  expect(refusals.map((response) => response.status)).toEqual([404, 401, 400]);
  for (const response of refusals) expect(v.is(ApiErrorBodySchema, await response.json())).toBe(true);
  const document = (await (await collector.request('/api/openapi.json')).json()) as { components: { schemas: { Error: unknown } } };
  expect(document.components.schemas.Error).toMatchObject({ required: ['error'], properties: { error: { required: ['code', 'message'] } } });
});
