import type { H3Event } from 'h3';
import type * as v from 'valibot';
import { apiError } from '../http/apiError';
import { allowPreflight } from '../http/cors';
import { defineRoute, type Route, type RouteContext } from '../http/route';
import type { VisitorOf } from '../http/visitorOf';
import type { ReceiveContext } from '../core/records';
import { clientOf } from '../core/clientOf';
import { AcceptedSchema } from '../schemas/answers/accepted';

type Json = Record<string, unknown>;
type Accepted = v.InferInput<typeof AcceptedSchema>;

/** The 202 body of every accepted submission (docs/responses.md). */
export const accepted = (event: H3Event, count: number): Accepted => {
  event.res.status = 202;
  return { status: 'accepted', accepted: count };
};

/**
 * When, from which user agent and from which visitor (docs/visitors.md) a report arrived, and its
 * client parsed once per request from the user agent and the `Sec-CH-UA-*` hints (core/clientOf.ts):
 * the stores keep browser, OS, device and bot per report, which the issues filter by (docs/issues.md).
 */
export const receiveContext = async (event: H3Event, siteKey: string, visitorOf: VisitorOf): Promise<ReceiveContext> => {
  const received_at = Date.now();
  const { headers } = event.req;
  const userAgent = headers.get('user-agent');
  const { browser, os, device, bot } = clientOf(userAgent, {
    'sec-ch-ua': headers.get('sec-ch-ua'),
    'sec-ch-ua-mobile': headers.get('sec-ch-ua-mobile'),
    'sec-ch-ua-platform': headers.get('sec-ch-ua-platform'),
    'sec-ch-ua-platform-version': headers.get('sec-ch-ua-platform-version'),
    'sec-ch-ua-full-version-list': headers.get('sec-ch-ua-full-version-list'),
  });
  return { received_at, user_agent: userAgent?.slice(0, 512), visitor: await visitorOf(event, siteKey, received_at), client: { browser, os, device, bot } };
};

/** What every browser-facing ingest endpoint can answer besides 202, 401 and 403 (auth adds those). */
const INGEST_ANSWERS = {
  202: { description: 'Stored (after commit)', schema: AcceptedSchema },
  400: 'invalid_json or invalid_report',
  404: 'unknown_site',
  413: 'payload_too_large: over 64 KiB',
  415: 'unsupported_media_type',
  429: 'rate_limited, with Retry-After',
  503: 'database_unavailable, with Retry-After: the database is unreachable, nothing acknowledged; send it again later',
};

/**
 * One browser-facing collection family, the same way for errors, CSP reports and performance
 * sessions: `{path}` for the default site when `unkeyed` (spec section 4), `{path}/{site_key}`,
 * and the keyed path's CORS preflight. Each submission goes site + origin check -> rate limit ->
 * media type and size -> JSON -> schema -> `handle`.
 *
 * @example
 * ingestRoutes({ kind: 'error', path: '/api/error-reports', methods: ['POST'], unkeyed: true, ... })
 */
export const ingestRoutes = <Body>({
  kind,
  path,
  methods,
  unkeyed,
  auth = 'ingest',
  tag,
  summary,
  body,
  responses = {},
  ownOrigin,
  handle,
}: {
  /** The report kind its submissions count towards in `GET /metrics` (http/metrics.ts). */
  kind: 'error' | 'csp' | 'performance';
  path: string;
  methods: Array<'POST' | 'PUT'>;
  unkeyed: boolean;
  /** `reports` where browsers' own reports arrive (they may carry `Origin: null`: http/route.ts). */
  auth?: 'ingest' | 'reports';
  tag: string;
  summary: (method: 'POST' | 'PUT', keyed: boolean) => string;
  body: { schema: v.GenericSchema<unknown, Body>; mediaTypes: string[]; jsonSchema?: Json };
  /** A 202 described further, and a 204 where a submission may store nothing. */
  responses?: { 202?: { description: string; schema: typeof AcceptedSchema }; 204?: string };
  /**
   * What this collector's own origin (its dashboard) may send here, although it is not one of the
   * site's origins: bodies for which this is true (the dashboard's connectivity check, spec section
   * 5.2). Anything else from that origin is refused as from any other origin (403 origin_not_allowed).
   */
  ownOrigin?: (body: Body) => boolean;
  handle: (context: RouteContext<Body, undefined>) => Promise<Accepted | null>;
}): Route[] => {
  const keyed = `${path}/:site_key`;
  const submission = (method: 'POST' | 'PUT', routePath: string) =>
    defineRoute({
      method,
      path: routePath,
      tag,
      summary: summary(method, routePath == keyed),
      auth,
      body: { ...body, invalidCode: 'invalid_report' },
      responses: { ...INGEST_ANSWERS, ...responses },
      ...(ownOrigin ? { ownOrigin: true } : {}),
      metric: kind,
      // A write under a key rotated since the lookup: 404 unknown_site (http/mountRoutes.ts).
      handle: (context: RouteContext<Body, undefined>) => {
        if (context.ownOrigin && !ownOrigin?.(context.body)) {
          throw apiError(403, 'origin_not_allowed', `origin ${context.event.req.headers.get('origin')} may send only connectivity checks to this site`);
        }
        return handle(context);
      },
    });
  return [
    ...(unkeyed ? methods.map((method) => submission(method, path)) : []),
    ...methods.map((method) => submission(method, keyed)),
    defineRoute({
      method: 'OPTIONS',
      path: keyed,
      tag,
      summary: `CORS preflight (${methods.join(', ')}) for the site's allowed origins`,
      // The same site and origin checks as the submission: a foreign origin learns nothing more here.
      auth: 'site',
      ...(ownOrigin ? { ownOrigin: true } : {}),
      responses: { 204: 'Allowed', 404: 'unknown_site' },
      handle: ({ event }) => {
        const origin = event.req.headers.get('origin');
        if (origin) allowPreflight(event, origin, methods);
        event.res.headers.set('allow', [...methods, 'OPTIONS'].join(', '));
        event.res.status = 204;
        return null;
      },
    }),
  ];
};
