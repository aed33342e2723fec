import type { H3Event } from 'h3';
import type * as v from 'valibot';
import type { ApiKey, ServerAgent, Site, User } from '../core/records';

type Json = Record<string, unknown>;

/**
 * Who may call a route, checked before its body is read (an unauthenticated caller learns
 * nothing about validation):
 * - `none`: anyone;
 * - `apiKey`: a valid API key (401);
 * - `siteApiKey`: a valid API key for the path's `{site_key}` (403 for another site's), or the
 *   `sitebeacon_session` cookie of a user who may see that site (403 otherwise; writes with the
 *   cookie need this collector's own `Origin`, 403 `csrf`), and a site that exists (404);
 * - `reader`: an API key or a signed-in user's cookie (401), whatever the site;
 * - `user`: a signed-in user's cookie only (401);
 * - `agentToken`: a server agent's own token (401; 403 for another agent's path);
 * - `agentTokenOrApiKey`: either of the two;
 * - `site`: a browser request for the path's site (or the default site), from an allowed `Origin` (403);
 * - `ingest`: as `site`, within the client's and the site's rate limits (429);
 * - `reports`: as `ingest`, and also `Origin: null` with a Content-Type only a browser's own
 *   reporting sends without a preflight (http/auth.ts, `opaqueReports`): the caller then has
 *   `opaqueOrigin`, and the route must keep only reports whose document is of an allowed origin.
 */
export type Auth = 'none' | 'apiKey' | 'siteApiKey' | 'reader' | 'user' | 'agentToken' | 'agentTokenOrApiKey' | 'site' | 'ingest' | 'reports';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** What authentication established, by kind. */
export interface Caller {
  apiKey?: ApiKey;
  site?: Site;
  agent?: ServerAgent;
  /** `reports` auth: the request came with `Origin: null`; its documents' origins are still to check. */
  opaqueOrigin?: boolean;
  /** The signed-in dashboard user, when the request came with the session cookie instead of a key. */
  user?: User;
  /**
   * `site` and `ingest` auth of a route that declares `ownOrigin`: the browser request came from this
   * collector's own origin (its dashboard), which is not one of the site's. The route must refuse
   * whatever that origin may not send (routes/ingest.ts).
   */
  ownOrigin?: boolean;
}

export interface RouteContext<Body, Query> extends Caller {
  event: H3Event;
  body: Body;
  query: Query;
}

/**
 * A documented answer: a description alone (a body-less success such as 204, or an error, which
 * has the one error shape of apiErrorBody.ts); a JSON body's valibot schema, which types
 * the handler's return, documents the body in the OpenAPI document and, in tests, validates every
 * answer (http/checkAnswer.ts); or a body that is not JSON (HTML, a script, a file), by its
 * Content-Type, optionally with the schema of the JSON text it carries.
 */
export type ResponseDoc =
  | string
  | { description: string; schema: v.GenericSchema; contentType?: undefined }
  | { description: string; contentType: string; schema?: v.GenericSchema | undefined };

/** A route's documented answers, by status. */
export type Responses = Record<number, ResponseDoc | undefined>;

/** A body that is not serialised as JSON by h3: text, bytes, a stream or a whole Response. */
export type RawBody = string | Uint8Array | ReadableStream | Response | null;

/**
 * What a handler may return for its declared answers: the input of each JSON body's schema, a raw
 * body where a Content-Type is declared, and null for a body-less success (204, 304); an error
 * described by words alone is thrown (apiError), never returned.
 */
export type AnswerOf<R extends Responses> = {
  [S in keyof R]: R[S] extends { contentType: string }
    ? RawBody
    : R[S] extends { schema: infer Schema extends v.GenericSchema }
      ? v.InferInput<Schema>
      : `${S & number}` extends `2${string}` | `3${string}`
        ? null
        : never;
}[keyof R];

/** What a client reads from a route: the output of its success bodies' schemas. */
export type SuccessOf<R extends Responses> = {
  [S in keyof R]: `${S & number}` extends `2${string}` ? (R[S] extends { schema: infer Schema extends v.GenericSchema } ? v.InferOutput<Schema> : never) : never;
}[keyof R];

/** A request body a route reads: its schema, media types and the 400 it answers when invalid. */
export interface BodyDeclaration<Body> {
  schema: v.GenericSchema<unknown, Body>;
  /** Accepted Content-Types (default: application/json). */
  mediaTypes?: string[];
  /** The code of a 400 for a body that does not validate (default `invalid_request`). */
  invalidCode?: 'invalid_request' | 'invalid_report';
  /** The documented schema, when the validating one is not expressible as JSON Schema. */
  jsonSchema?: Json;
  /** The largest body read, in bytes (413 above it); default readJsonBody.ts's MAX_BODY_BYTES, a report batch's. */
  maxBytes?: number;
}

/**
 * One endpoint, declared once: method, path, auth, schemas, documented answers and handler.
 * The collector mounts these (mountRoutes.ts) and the OpenAPI document is generated from them
 * (../openapi/openApiDocument.ts), so the two cannot drift.
 */
export interface Route<Body = unknown, Query = unknown> {
  method: Method;
  /** h3 path, `:name` for parameters. */
  path: string;
  summary: string;
  /** Grouping in the API reference. */
  tag: string;
  auth: Auth;
  body?: BodyDeclaration<Body>;
  query?: v.GenericSchema<Record<string, unknown>, Query>;
  /**
   * The answers beyond what auth, body and query add on their own (401, 403, 404, 400, 413, 415,
   * 429), each success with its body's schema or Content-Type (routes/routeResponses.test.ts).
   */
  responses: Responses;
  /**
   * With `site` or `ingest` auth: this collector's own origin (the dashboard's, `{app_url}`) passes
   * the origin check too, marked `ownOrigin` (the dashboard's connectivity check submits so).
   */
  ownOrigin?: boolean;
  /**
   * What `GET /metrics` counts of this route's answers (http/metrics.ts): the submissions of a
   * report kind by status, or `sign_in`'s 401 and 429.
   */
  metric?: 'error' | 'csp' | 'performance' | 'sign_in';
  /**
   * A read of many stored rows (the read API's views): at most HEAVY_READS_PER_CALLER of them under
   * way per API key or signed-in user, 429 `rate_limited` with `Retry-After` beyond (http/readSlots.ts).
   */
  heavyRead?: boolean;
  handle(context: RouteContext<Body, Query>): unknown;
}

/**
 * The types a declared route carries for clients (routes/apiTypes.ts): its method, its path
 * template, its query's input and its answers. A phantom property: never set, zero bytes.
 */
export interface RouteTypes<M extends Method, P extends string, Query, R extends Responses> {
  readonly '~types'?: { method: M; path: P; query: Query; responses: R };
}

/**
 * Declares a route; the identity function, for type inference: the body and query from their
 * schemas, and the handler's return from `responses` (a handler answering another shape does not
 * compile).
 *
 * @example
 * defineRoute({ method: 'GET', path: '/api/test-connectivity', tag: 'Collection', summary: '…', auth: 'none',
 *   responses: { 200: { description: 'Connected', schema: v.object({ status: v.literal('success') }) } },
 *   handle: () => ({ status: 'success' as const }) });
 */
export const defineRoute = <M extends Method, P extends string, R extends Responses, Body = undefined, Query = undefined, QueryIn = undefined>(
  route: Omit<Route, 'method' | 'path' | 'body' | 'query' | 'responses' | 'handle'> & {
    method: M;
    body?: BodyDeclaration<Body>;
    path: P;
    query?: v.GenericSchema<QueryIn, Query>;
    responses: R;
    handle(context: RouteContext<Body, Query>): AnswerOf<R> | Promise<AnswerOf<R>>;
  },
): Route & RouteTypes<M, P, QueryIn, R> => route as unknown as Route & RouteTypes<M, P, QueryIn, R>;
