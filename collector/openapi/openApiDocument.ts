import type * as v from 'valibot';
import { MAX_BODY_BYTES } from '../http/readJsonBody';
import type { Auth, ResponseDoc, Route } from '../http/route';
import { OPENAPI_COMPONENTS } from './components';
import { jsonSchemaOf } from './jsonSchemaOf';

type Json = Record<string, unknown>;

const SECURITY: Partial<Record<Auth, Json[]>> = {
  apiKey: [{ bearer: [] }, { apiKeyHeader: [] }],
  siteApiKey: [{ bearer: [] }, { apiKeyHeader: [] }, { session: [] }],
  reader: [{ bearer: [] }, { apiKeyHeader: [] }, { session: [] }],
  user: [{ session: [] }],
  agentToken: [{ agentToken: [] }],
  agentTokenOrApiKey: [{ agentToken: [] }, { bearer: [] }, { apiKeyHeader: [] }],
};

/** The answers a route's authentication and input add on their own. */
const impliedAnswers = (route: Route): Record<number, ResponseDoc | undefined> => ({
  ...(SECURITY[route.auth] ? { 401: 'unauthorized: no credentials, or not valid ones' } : {}),
  ...(route.auth == 'apiKey' ? { 403: 'forbidden: an API key of another site' } : {}),
  ...(route.auth == 'siteApiKey'
    ? { 403: 'forbidden: an API key of another site, or a signed-in user not allowed it; csrf: a write with the session cookie from another Origin' }
    : {}),
  ...(route.auth == 'agentToken' ? { 403: 'forbidden: a token of another agent' } : {}),
  ...(route.auth == 'siteApiKey' ? { 404: 'unknown_site' } : {}),
  ...(route.auth == 'site' || route.auth == 'ingest' ? { 403: "origin_not_allowed: the browser Origin is not allowed for the site" } : {}),
  ...(route.auth == 'reports'
    ? { 403: "origin_not_allowed: the browser Origin is not allowed for the site (`Origin: null` is, with application/csp-report or application/reports+json: each report's document URL is checked instead)" }
    : {}),
  ...(route.query ? { 400: 'bad_request: a query parameter is not valid' } : {}),
  ...(route.heavyRead ? { 429: 'rate_limited: the caller (API key or signed-in user) has as many of these reads under way as it may; with Retry-After' } : {}),
  ...(route.body
    ? {
        400: `invalid_json, or ${route.body.invalidCode ?? 'invalid_request'}: the body does not validate`,
        413: `payload_too_large: over ${(route.body.maxBytes ?? MAX_BODY_BYTES) / 1024} KiB`,
        415: 'unsupported_media_type',
      }
    : {}),
});

/**
 * One documented answer: its body's JSON Schema from the route's valibot schema; an error described
 * by words alone has the one error shape (http/apiErrorBody.ts); a body that is not JSON
 * names its Content-Type.
 */
const response = (doc: ResponseDoc, status: number) => {
  const { description, schema, contentType } = typeof doc == 'string' ? { description: doc, schema: undefined, contentType: undefined } : doc;
  if (schema) return { description, content: { [contentType ?? 'application/json']: { schema: jsonSchemaOf(schema) } } };
  if (contentType) return { description, content: { [contentType]: {} } };
  if (status < 400) return { description };
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
};

const parametersOf = (route: Route) => {
  const pathParameters = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const entries = route.query && 'entries' in route.query ? (route.query.entries as Record<string, v.GenericSchema>) : {};
  const queryParameters = Object.entries(entries).map(([name, schema]) => ({ name, in: 'query', schema: jsonSchemaOf(schema) }));
  return [...pathParameters, ...queryParameters];
};

const operationOf = (route: Route) => {
  const parameters = parametersOf(route);
  const answers = { ...impliedAnswers(route), ...route.responses };
  return {
    summary: route.summary,
    tags: [route.tag],
    ...(SECURITY[route.auth] ? { security: SECURITY[route.auth] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              (route.body.mediaTypes ?? ['application/json']).map((type) => [type, { schema: route.body!.jsonSchema ?? jsonSchemaOf(route.body!.schema) }]),
            ),
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(answers).flatMap(([status, doc]) => (doc === undefined ? [] : [[status, response(doc, Number(status))]])),
    ),
  };
};

/**
 * The OpenAPI 3.1 document of the route table (`GET /api/openapi.json`): paths, parameters,
 * request bodies from the validating schemas, security from each route's auth, and the answers
 * its auth and input imply. Generated, so that it names exactly what is served.
 *
 * @example
 * openApiDocument(routes, 'https://collector.example')
 */
export const openApiDocument = (routes: Route[], serverUrl: string): Json => {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'sitebeacon collector',
      version: '1',
      description:
        'Collects browser error reports, CSP violation reports and performance sessions, and serves the WordPress plugin, CSP projects and Linux server agents. Errors are {"error":{"code","message"}}.',
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
    components: OPENAPI_COMPONENTS,
    paths,
  };
};
