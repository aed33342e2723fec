import { toJsonSchema } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import { CspProjectCreateSchema, CspProjectUpdateSchema } from './routes/cspProjects';
import { AgentRegisterSchema, HeartbeatSchema } from './routes/serverAgents';
import { ActionResultsSchema, ActionSchema, CheckInSchema, WordPressRegisterSchema } from './routes/wordpress';
import { ErrorReportSchema } from './schemas/errorReport';
import { PerformanceSessionSchema } from './schemas/performanceSession';

type Json = Record<string, unknown>;

/** The request schema as JSON Schema, from the very valibot schema that validates it. */
const schemaOf = (schema: GenericSchema): Json => {
  const { $schema: _ignored, ...json } = toJsonSchema(schema, { errorMode: 'ignore' }) as Json;
  return json;
};
const body = (schema: Json, types = ['application/json']) => ({
  required: true,
  content: Object.fromEntries(types.map((type) => [type, { schema }])),
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const error = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });
const ok = (description: string, schema: Json = { type: 'object' }) => ({ description, content: { 'application/json': { schema } } });
const siteKey = { name: 'site_key', in: 'path', required: true, schema: { type: 'string' } };
const idParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const listQuery = [
  { name: 'since', in: 'query', schema: { type: 'string', format: 'date-time' } },
  { name: 'cursor', in: 'query', schema: { type: 'string' }, description: 'next_cursor of the previous page' },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
];
const apiKey = [{ bearer: [] }, { apiKeyHeader: [] }];
const agentToken = [{ agentToken: [] }];
const keyErrors = { 401: error('No API key, or not a valid one'), 403: error('An API key of another site') };

/** What every browser-facing ingest endpoint can answer. */
const ingestAnswers = (accepted: string) => ({
  202: ok(accepted, ref('Accepted')),
  400: error('invalid_json or invalid_report'),
  403: error('origin_not_allowed: the browser Origin is not allowed for the site'),
  404: error('unknown_site'),
  413: error('payload_too_large: over 64 KiB'),
  415: error('unsupported_media_type'),
  429: error('rate_limited, with Retry-After'),
});
const preflight = (methods: string) => ({
  options: {
    summary: `CORS preflight (${methods}) for the site's allowed origins`,
    parameters: [siteKey],
    responses: { 204: { description: 'Allowed' }, 403: error('origin_not_allowed'), 404: error('unknown_site') },
  },
});

const cspBody = {
  oneOf: [
    {
      type: 'object',
      description: 'CSP2 report-uri shape (also our beacon)',
      required: ['csp-report'],
      properties: { 'csp-report': { type: 'object', required: ['document-uri'], additionalProperties: true } },
    },
    {
      type: 'array',
      description: 'Reporting API batch (application/reports+json); other report types are stored by type',
      maxItems: 100,
      items: ref('ReportingApiReport'),
    },
    { ...ref('ReportingApiReport'), description: "Safari's single report" },
  ],
};
const cspTypes = ['application/csp-report', 'application/reports+json', 'application/json', 'text/plain'];
const errorReports = { oneOf: [schemaOf(ErrorReportSchema), { type: 'array', minItems: 1, maxItems: 50, items: schemaOf(ErrorReportSchema) }] };
const jsonOrText = ['application/json', 'text/plain'];

/**
 * The OpenAPI 3.1 document of every endpoint (`GET /api/openapi.json`). Request bodies come from
 * the valibot schemas that validate them; collector/openapi.test.ts checks that the document and
 * the registered routes name the same operations.
 */
export const openApiDocument = (serverUrl: string): Json => ({
  openapi: '3.1.0',
  info: {
    title: 'sitebeacon collector',
    version: '1',
    description:
      'Collects browser error reports, CSP violation reports and performance sessions, and serves the WordPress plugin, CSP projects and Linux server agents. Errors are {"error":{"code","message"}}.',
  },
  servers: [{ url: serverUrl }],
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'An API key from `sitebeacon key create`' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      agentToken: { type: 'http', scheme: 'bearer', description: 'The agent token `register` answered (sba_...)' },
    },
    schemas: {
      Error: {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } } },
      },
      Accepted: { type: 'object', properties: { status: { const: 'accepted' }, accepted: { type: 'integer' } } },
      ReportingApiReport: {
        type: 'object',
        required: ['type', 'body'],
        properties: { type: { type: 'string' }, age: { type: 'number' }, url: { type: 'string' }, user_agent: { type: 'string' }, body: { type: 'object' } },
      },
      Page: { type: 'object', properties: { data: { type: 'array', items: { type: 'object' } }, next_cursor: { type: ['string', 'null'] } } },
    },
  },
  paths: {
    '/api/test-connectivity': {
      get: { summary: 'Connectivity check: no credentials, stores nothing', responses: { 200: ok('Connected', { type: 'object', properties: { status: { const: 'success' } } }) } },
    },
    '/api/error-reports': { post: { summary: 'Error report(s) for the default site', requestBody: body(errorReports, jsonOrText), responses: ingestAnswers('Stored') } },
    '/api/error-reports/{site_key}': {
      post: { summary: 'Error report(s) for a site', parameters: [siteKey], requestBody: body(errorReports, jsonOrText), responses: ingestAnswers('Stored') },
      ...preflight('POST'),
    },
    '/api/csp-reports': {
      post: { summary: 'CSP report(s) for the default site', requestBody: body(cspBody, cspTypes), responses: { ...ingestAnswers('Stored'), 204: { description: 'Noise (extensions, about:): not stored' } } },
    },
    '/api/csp-reports/{site_key}': {
      post: { summary: 'CSP report(s) for a site', parameters: [siteKey], requestBody: body(cspBody, cspTypes), responses: { ...ingestAnswers('Stored'), 204: { description: 'Noise: not stored' } } },
      ...preflight('POST'),
    },
    '/api/performance-sessions/{site_key}': {
      post: { summary: 'Create or update a performance session', parameters: [siteKey], requestBody: body(schemaOf(PerformanceSessionSchema), jsonOrText), responses: ingestAnswers('Stored') },
      put: { summary: 'Update a performance session (each metric keeps its latest value)', parameters: [siteKey], requestBody: body(schemaOf(PerformanceSessionSchema), jsonOrText), responses: ingestAnswers('Stored') },
      ...preflight('POST, PUT'),
    },
    '/beacon.js': { get: { summary: 'The beacon script (IIFE)', responses: { 200: { description: 'JavaScript', content: { 'text/javascript': {} } } } } },
    '/beacon.vitals.js': { get: { summary: "The beacon's second script (web-vitals), loaded by /beacon.js at idle", responses: { 200: { description: 'JavaScript', content: { 'text/javascript': {} } } } } },
    '/api/openapi.json': { get: { summary: 'This document', responses: { 200: ok('OpenAPI 3.1') } } },
    ...Object.fromEntries(
      ['error-reports', 'csp-reports', 'performance-sessions'].map((kind) => [
        `/api/v1/sites/{site_key}/${kind}`,
        { get: { summary: `Stored ${kind}, oldest first`, security: apiKey, parameters: [siteKey, ...listQuery], responses: { 200: ok('A page', ref('Page')), 400: error('bad_request'), ...keyErrors, 404: error('unknown_site') } } },
      ]),
    ),
    '/api/v1/sites/{site_key}/summary': {
      get: {
        summary: 'Errors by fingerprint, CSP violations by directive and blocked host, p75 and ratings per metric',
        security: apiKey,
        parameters: [siteKey, listQuery[0], { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 50 } }],
        responses: { 200: ok('Summary'), 400: error('bad_request'), ...keyErrors, 404: error('unknown_site') },
      },
    },
    '/api/v1/sites/{site_key}/actions': {
      post: { summary: 'Queue an action for the WordPress plugin', security: apiKey, parameters: [siteKey], requestBody: body(schemaOf(ActionSchema)), responses: { 201: ok('Queued'), 400: error('invalid_request'), ...keyErrors, 404: error('unknown_site') } },
    },
    '/api/v1/verify-api-key': {
      post: {
        summary: "The WordPress plugin's credential check",
        security: apiKey,
        responses: {
          200: ok('Valid', { type: 'object', properties: { valid: { const: true }, scope: { type: 'object' } } }),
          401: ok('Not valid', { type: 'object', properties: { valid: { const: false }, error: ref('Error') } }),
        },
      },
    },
    '/api/v1/wordpress/register': {
      post: {
        summary: 'Register a WordPress install (idempotent per site URL): answers the site key, API base, ingest and app URLs, snippet and features',
        security: apiKey,
        requestBody: body(schemaOf(WordPressRegisterSchema)),
        responses: { 200: ok('Already registered'), 201: ok('Registered'), 400: error('invalid_request'), ...keyErrors },
      },
    },
    '/api/v1/wordpress/check-in': {
      post: { summary: 'Versions and status in; pending actions and the next interval out', security: apiKey, requestBody: body(schemaOf(CheckInSchema)), responses: { 200: ok('Pending actions'), 400: error('invalid_request'), ...keyErrors, 404: error('unknown_site') } },
    },
    '/api/v1/wordpress/action-results': {
      post: { summary: "Each action's outcome", security: apiKey, requestBody: body(schemaOf(ActionResultsSchema)), responses: { 200: ok('Recorded'), 400: error('invalid_request'), ...keyErrors, 404: error('unknown_site or unknown_action') } },
    },
    '/api/v1/csp-projects': {
      get: { summary: 'CSP projects (of the key\'s site, or ?site_key=)', security: apiKey, parameters: [{ name: 'site_key', in: 'query', schema: { type: 'string' } }], responses: { 200: ok('Projects'), ...keyErrors } },
      post: { summary: 'Create a CSP project', security: apiKey, requestBody: body(schemaOf(CspProjectCreateSchema)), responses: { 201: ok('Created'), 400: error('invalid_request'), ...keyErrors, 404: error('unknown_site') } },
    },
    '/api/v1/csp-projects/{id}': {
      get: { summary: 'A CSP project', security: apiKey, parameters: [idParam('id')], responses: { 200: ok('Project'), ...keyErrors, 404: error('unknown_project') } },
      patch: { summary: 'Change name, mode or base policy', security: apiKey, parameters: [idParam('id')], requestBody: body(schemaOf(CspProjectUpdateSchema)), responses: { 200: ok('Project'), 400: error('invalid_request'), ...keyErrors, 404: error('unknown_project') } },
      delete: { summary: 'Delete a CSP project', security: apiKey, parameters: [idParam('id')], responses: { 204: { description: 'Deleted' }, ...keyErrors, 404: error('unknown_project') } },
    },
    '/api/v1/csp-projects/{id}/suggested-policy': {
      get: { summary: "A policy allowing what the site's stored violations needed, with evidence counts", security: apiKey, parameters: [idParam('id')], responses: { 200: ok('Suggestion'), ...keyErrors, 404: error('unknown_project') } },
    },
    '/api/v1/csp-projects/{id}/header': {
      get: {
        summary: 'The header to deploy, reporting to this collector, and its Reporting-Endpoints header',
        security: apiKey,
        parameters: [idParam('id'), { name: 'policy', in: 'query', schema: { enum: ['base', 'suggested'], default: 'base' } }],
        responses: { 200: ok('Headers'), 400: error('bad_request'), ...keyErrors, 404: error('unknown_project') },
      },
    },
    '/api/v1/server-agents/register': {
      post: { summary: 'Register a Linux server agent: answers its id and token (shown once)', security: apiKey, requestBody: body(schemaOf(AgentRegisterSchema)), responses: { 201: ok('Registered'), 400: error('invalid_request'), ...keyErrors, 404: error('unknown_site') } },
    },
    '/api/v1/server-agents/{id}/config': {
      get: { summary: "The agent's configuration", security: agentToken, parameters: [idParam('id')], responses: { 200: ok('Config'), 401: error('unauthorized'), 403: error('A token of another agent') } },
    },
    '/api/v1/server-agents/{id}/heartbeat': {
      post: { summary: 'Heartbeat with status', security: agentToken, parameters: [idParam('id')], requestBody: body(schemaOf(HeartbeatSchema)), responses: { 200: ok('Next heartbeat'), 400: error('invalid_request'), 401: error('unauthorized'), 403: error('A token of another agent') } },
    },
    '/api/v1/server-agents/updates/latest': {
      get: { summary: 'The signed manifest (Ed25519) of the newest agent build', security: [...agentToken, ...apiKey], responses: { 200: ok('Manifest'), 401: error('unauthorized'), 404: error('No build published') } },
    },
    '/api/v1/server-agents/updates/public-key': {
      get: { summary: 'The Ed25519 public key that verifies update manifests, and its key id', responses: { 200: ok('Public key'), 404: error('Updates not enabled') } },
    },
    '/downloads/agents/{file}': {
      get: { summary: 'An agent build, on the app host', parameters: [idParam('file')], responses: { 200: { description: 'The build', content: { 'application/octet-stream': {} } }, 404: error('not_found') } },
    },
  },
});
