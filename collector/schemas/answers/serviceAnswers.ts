import * as v from 'valibot';
import { IsoTimeSchema } from './isoTime';

/** `GET /api/test-connectivity` (spec section 4). */
export const ConnectivitySchema = v.object({ status: v.literal('success') });

/** `GET /api/health` while the store can write. */
export const HealthySchema = v.object({ status: v.literal('ok') });

/** `GET /api/health` when it cannot: the reason names what failed, never an error's detail. */
export const UnhealthySchema = v.object({ status: v.literal('unhealthy'), reason: v.string() });

/** `GET /api/v1/session`: who is signed in, and the sites they are limited to (null: every site). */
export const SessionUserSchema = v.object({ email: v.string(), site_keys: v.nullable(v.array(v.string())) });

/** `POST /api/v1/verify-api-key` with a valid key (spec section 5.2). */
export const ValidApiKeySchema = v.object({
  valid: v.literal(true),
  scope: v.variant('type', [v.object({ type: v.literal('site'), site_key: v.string() }), v.object({ type: v.literal('installation') })]),
  name: v.string(),
  created_at: IsoTimeSchema,
});

/** One operation of the OpenAPI document, as the dashboard's API reference lists it. */
const OperationSchema = v.object({
  summary: v.string(),
  tags: v.array(v.string()),
  security: v.optional(v.array(v.record(v.string(), v.array(v.string())))),
  responses: v.record(v.string(), v.object({ description: v.string() })),
});

/** `GET /api/openapi.json`: an OpenAPI 3.1 document (collector/openapi/), by path and method. */
export const OpenApiDocumentSchema = v.object({
  openapi: v.literal('3.1.0'),
  info: v.object({ title: v.string(), version: v.string(), description: v.string() }),
  servers: v.array(v.object({ url: v.string() })),
  paths: v.record(v.string(), v.record(v.string(), OperationSchema)),
});
