import type { H3, H3Event } from 'h3';
import { apiError } from './apiError';
import { checkAnswer } from './checkAnswer';
import { StoreUnavailableError } from '../store/storeUnavailableError';
import { UnhealthyStoreError } from '../store/unhealthyStoreError';
import { UnknownSiteError } from '../store/unknownSiteError';
import { authenticate, unknownSite, type AuthDeps } from './auth';
import { countAnswers, type Metrics } from './metrics';
import { mediaTypeOf, readFormBody, readJsonBody } from './readJsonBody';
import { callerOf, createReadSlots, type ReadSlots } from './readSlots';
import type { Caller, Method, Route } from './route';
import { validateBody, validateQuery } from './validate';

/** Every method h3 routes by name: the ones a path does not declare answer 405. */
const ALL_METHODS: Array<Method | 'CONNECT' | 'TRACE' | 'QUERY'> = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE', 'QUERY'];

/** The methods a path answers: its routes', and HEAD wherever there is a GET (h3 answers it with the GET route). */
export const allowedMethods = (routes: Route[]): Method[] => {
  const methods = new Set(routes.map((route) => route.method));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods];
};

type Deps = AuthDeps & { readSlots: ReadSlots; checkAnswers?: boolean | undefined };

const handle = async (route: Route, deps: Deps, event: H3Event) => {
  // Authentication comes first: a caller without the right to call learns nothing about validation.
  const caller = await authenticate(route.auth, event, deps, { ownOrigin: route.ownOrigin });
  const identity = route.heavyRead ? callerOf(caller) : undefined;
  if (identity === undefined) return await handleAs(route, event, caller, deps);
  // A heavy read holds its caller's slot until its answer is made, or waits a little for one (http/readSlots.ts).
  const release = await deps.readSlots.take(identity, event.req.signal);
  try {
    return await handleAs(route, event, caller, deps);
  } finally {
    release();
  }
};

const handleAs = async (route: Route, event: H3Event, caller: Caller, { checkAnswers }: Deps) => {
  const query = route.query ? await validateQuery(event, route.query) : undefined;
  const body = route.body
    ? await validateBody(
        route.body.mediaTypes?.includes('multipart/form-data') && mediaTypeOf(event) == 'multipart/form-data'
          ? await readFormBody(event, { limit: route.body.maxBytes })
          : await readJsonBody(event, { mediaTypes: route.body.mediaTypes ?? ['application/json'], limit: route.body.maxBytes }),
        route.body.schema,
        route.body.invalidCode ?? 'invalid_request',
      )
    : undefined;
  const answer = await route.handle({ event, body, query, ...caller });
  if (checkAnswers) checkAnswer(route, answer instanceof Response ? answer.status : (event.res.status ?? 200), answer);
  return answer;
};

/** Seconds a client is asked to wait before it sends a request again that the database could not take. */
export const DATABASE_RETRY_AFTER_S = 5;

/**
 * A route's handler. A store call that could not reach the database (StoreUnavailableError,
 * store/storeUnavailableError.ts: a PostgreSQL server stopped or restarting) is answered from every
 * route 503 `database_unavailable` with `Retry-After`: nothing was acknowledged, the same request
 * may be sent again, and an outage is no bug (no 500, nothing logged per request; `GET /api/health`
 * says 503 meanwhile). A store write under a site key that no longer exists (UnknownSiteError,
 * store/unknownSiteError.ts) is answered from every route as the lookup answers an unknown key,
 * 404 `unknown_site`, nothing stored: the route looked the site up a moment before (a PostgreSQL
 * collector keeps it for 5 s, store/siteCache.ts) and another process has since rotated its key
 * (`site rotate-key`). The client's key is wrong, not the server: no 500.
 */
const handlerOf = (route: Route, deps: Deps) => async (event: H3Event) => {
  try {
    return await handle(route, deps, event);
  } catch (error) {
    if (error instanceof UnknownSiteError) throw unknownSite(error.siteKey);
    // The SQLite file deleted or replaced, or the disk full (store/unhealthyStoreError.ts): 503,
    // never 2xx, and logged (the message names the file) as other 5xx are.
    if (error instanceof UnhealthyStoreError) throw apiError(503, 'internal', error.message);
    if (error instanceof StoreUnavailableError)
      throw apiError(503, 'database_unavailable', `the database is unavailable; retry after ${DATABASE_RETRY_AFTER_S} s`, {
        'retry-after': String(DATABASE_RETRY_AFTER_S),
      });
    throw error;
  }
};

/**
 * Mounts the route table on the app: each route's handler behind its authentication and its
 * validated query and body; HEAD is the GET route's where no HEAD route is declared (as h3's own
 * fallback, but registered, so that it wins over a parameter's 405; a route may declare a cheaper HEAD); every other
 * method answers 405 with `Allow` (without this h3 would answer 404). With `metrics`, the answers
 * of a route that declares a `metric` are counted (http/metrics.ts). A route that declares
 * `heavyRead` is bounded per caller (http/readSlots.ts; `readSlots`, one per collector by default).
 * With `checkAnswers` (the test collector's), every answer is checked against the schema its route
 * declares for its status (http/checkAnswer.ts): one that differs is a 500, logged with the difference.
 *
 * @example
 * mountRoutes(app, [...connectivityRoutes(), ...errorReportRoutes(deps)], deps);
 */
export const mountRoutes = (
  app: H3,
  routes: Route[],
  { readSlots = createReadSlots(), ...deps }: AuthDeps & { metrics?: Metrics; readSlots?: ReadSlots; checkAnswers?: boolean | undefined },
) => {
  const byPath = new Map<string, Route[]>();
  for (const route of routes) {
    const handler = countAnswers(route, deps.metrics, handlerOf(route, { ...deps, readSlots }));
    app.on(route.method, route.path, handler);
    // HEAD named for each GET, as h3's fallback would take it: a path's own HEAD is found before
    // the 405 of a path with a parameter in its place (GET /alerts/deliveries beside DELETE /alerts/{id}).
    if (route.method == 'GET' && !routes.some((other) => other.path == route.path && other.method == 'HEAD')) app.on('HEAD', route.path, handler, { meta: { headOfGet: true } });
    byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  }
  for (const [path, pathRoutes] of byPath) {
    const allowed = allowedMethods(pathRoutes);
    const allow = allowed.join(', ');
    const refuse = (event: H3Event) => {
      throw apiError(405, 'method_not_allowed', `${event.req.method} is not allowed here; use ${allow}`, { allow });
    };
    for (const method of ALL_METHODS) if (!allowed.includes(method as Method)) app.on(method, path, refuse, { meta: { methodNotAllowed: true } });
  }
};
