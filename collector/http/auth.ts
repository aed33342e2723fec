import { timingSafeEqual } from 'node:crypto';
import { getRouterParam, type H3Event } from 'h3';
import { AGENT_TOKEN, hashApiKey } from '../core/keys';
import { DEFAULT_SITE_KEY, type ApiKey, type ServerAgent, type Site } from '../core/records';
import { userMaySee } from '../core/users';
import type { Store } from '../store/contract';
import { apiError } from './apiError';
import { allowOrigin } from './cors';
import { mediaTypeOf } from './readJsonBody';
import type { RateCheck } from './rateCheck';
import type { Auth, Caller } from './route';
import { requireSameOrigin, requireUser, SAFE_METHODS } from './sessionAuth';
import { sessionToken } from './sessionCookie';

/** What authentication needs from the collector. */
export interface AuthDeps {
  store: Store;
  checkRate: RateCheck;
  /** The collector's public URL: the origin a write made with the session cookie must come from. */
  appUrl: () => string;
}

const sameHash = (stored: string, presented: string) =>
  stored.length == presented.length && timingSafeEqual(Buffer.from(stored), Buffer.from(presented));

const bearer = (event: H3Event) => /^Bearer\s+(\S+)\s*$/i.exec(event.req.headers.get('authorization') ?? '')?.[1];

/** The API key a request presents: `Authorization: Bearer KEY`, else `X-API-Key: KEY`. */
const presentedKey = (event: H3Event) => bearer(event) ?? event.req.headers.get('x-api-key')?.trim();

/**
 * Checks the request's API key: 401 `unauthorized` without one or with an unknown one. The lookup
 * is by SHA-256 of the key, so its timing says nothing about the key; the final comparison is
 * constant-time all the same.
 */
export const requireApiKey = async (event: H3Event, store: Store): Promise<ApiKey> => {
  const key = presentedKey(event);
  if (!key) {
    throw apiError(401, 'unauthorized', 'an API key is required: send Authorization: Bearer KEY (or X-API-Key: KEY)', {
      'www-authenticate': 'Bearer',
    });
  }
  const hash = hashApiKey(key);
  const found = await store.apiKeys.findByHash(hash);
  if (!found || !sameHash(found.key_hash, hash)) {
    throw apiError(401, 'unauthorized', 'the API key is not valid', { 'www-authenticate': 'Bearer error="invalid_token"' });
  }
  return found;
};

/** A key made for one site may read and change that site only: 403 `forbidden` for another. */
export const requireSiteAccess = (key: ApiKey, siteKey: string) => {
  if (key.site_key !== undefined && key.site_key !== siteKey) {
    throw apiError(403, 'forbidden', 'this API key belongs to another site');
  }
};

/**
 * The caller (an API key or a signed-in user) may see this site: 403 `forbidden` otherwise.
 *
 * @example
 * requireCallerSiteAccess({ user }, project.site_key);
 */
export const requireCallerSiteAccess = (caller: Caller, siteKey: string) => {
  if (caller.apiKey) requireSiteAccess(caller.apiKey, siteKey);
  else if (!caller.user || !userMaySee(caller.user, siteKey)) throw apiError(403, 'forbidden', 'this account may not see this site');
};

/**
 * The answer to a site key no site has: 404 `unknown_site`.
 *
 * @example
 * throw unknownSite('abc'); // {"error":{"code":"unknown_site","message":"no site has the key \"abc\""}}
 */
export const unknownSite = (siteKey: string) => apiError(404, 'unknown_site', `no site has the key "${siteKey}"`);

/** The one site lookup: the site, or 404 `unknown_site`. */
export const findSite = async (store: Store, siteKey: string): Promise<Site> => {
  const site = await store.sites.get(siteKey);
  if (!site) throw unknownSite(siteKey);
  return site;
};

/**
 * The Content-Types of a browser's own reports: CSP2 `report-uri` (and WebKit's `report-to`) send
 * `application/csp-report`, the Reporting API `application/reports+json`. Neither is
 * CORS-safelisted (Fetch, "CORS-safelisted request-header"): a page's script or form cannot send
 * them without a preflight, and the preflight of an opaque origin (`Origin: null`) is refused. So
 * a POST with `Origin: null` and one of these types comes from a browser's reporting itself
 * (WebKit sends every one of its reports so: collector/fixtures/README.md), or from a client that
 * could as well have sent no Origin at all; never from a sandboxed page of another site.
 */
const OPAQUE_REPORT_TYPES: ReadonlySet<string> = new Set(['application/csp-report', 'application/reports+json']);

/** What a route adds to its authentication (http/route.ts `ownOrigin`). */
export interface AuthOptions {
  ownOrigin?: boolean | undefined;
}

const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : undefined);

/**
 * The site a browser request is for (the default site when the path has no key), checking the
 * request's `Origin` against the site's allowed origins. Requests without an `Origin`, as from
 * servers, are accepted. With `opaqueReports`, `Origin: null` is accepted too when the
 * Content-Type is a browser's own reports' (OPAQUE_REPORT_TYPES): it is treated like a
 * missing Origin (docs/csp-reports.md, "`Origin: null`") and checks each report's document URL instead (routes/cspReports.ts). No CORS
 * header answers it: an opaque origin may not read the answer. With `ownOrigin`, this collector's
 * own origin (`appUrl`, the dashboard's) passes as well, marked so, and may read the answer.
 */
const siteForBrowser = async (
  event: H3Event,
  { store, appUrl }: Pick<AuthDeps, 'store' | 'appUrl'>,
  { opaqueReports = false, ownOrigin = false }: { opaqueReports?: boolean; ownOrigin?: boolean | undefined } = {},
): Promise<Caller> => {
  const site = await findSite(store, getRouterParam(event, 'site_key') ?? DEFAULT_SITE_KEY);
  const origin = event.req.headers.get('origin');
  if (origin === 'null' && opaqueReports && event.req.method == 'POST' && OPAQUE_REPORT_TYPES.has(mediaTypeOf(event))) {
    return { site, opaqueOrigin: true };
  }
  if (origin !== null) {
    const own = ownOrigin && !site.allowed_origins.includes(origin) && origin === originOf(appUrl());
    if (!own && !site.allowed_origins.includes(origin)) {
      throw apiError(403, 'origin_not_allowed', `origin ${origin} is not allowed to report to this site`);
    }
    allowOrigin(event, origin);
    if (own) return { site, ownOrigin: true };
  }
  return { site };
};

/** The server agent whose token the request carries: 401 otherwise, 403 on another agent's path. */
const requireAgent = async (event: H3Event, store: Store): Promise<ServerAgent> => {
  const match = AGENT_TOKEN.exec(bearer(event) ?? '');
  if (!match) throw apiError(401, 'unauthorized', 'an agent token is required: Authorization: Bearer sba_...', { 'www-authenticate': 'Bearer' });
  const agent = await store.agents.get(match[1]!);
  if (!agent || !sameHash(agent.token_hash, hashApiKey(match[0]))) {
    throw apiError(401, 'unauthorized', 'the agent token is not valid', { 'www-authenticate': 'Bearer error="invalid_token"' });
  }
  const id = getRouterParam(event, 'id');
  if (id !== undefined && id !== agent.id) throw apiError(403, 'forbidden', 'this token belongs to another agent');
  return agent;
};

/**
 * The API key the request presents, else the signed-in user of its session cookie (a write with
 * the cookie must come from this collector's own Origin). A key wins when both are sent: scripts
 * use keys, and the key's own scope then applies.
 */
const keyOrUser = async (event: H3Event, { store, appUrl }: AuthDeps): Promise<Caller> => {
  if (presentedKey(event) || !sessionToken(event)) return { apiKey: await requireApiKey(event, store) };
  const user = await requireUser(event, store);
  if (!SAFE_METHODS.has(event.req.method)) requireSameOrigin(event, appUrl());
  return { user };
};

const checks: Record<Auth, (event: H3Event, deps: AuthDeps, options: AuthOptions) => Promise<Caller>> = {
  none: async () => ({}),
  apiKey: async (event, { store }) => ({ apiKey: await requireApiKey(event, store) }),
  siteApiKey: async (event, deps) => {
    const caller = await keyOrUser(event, deps);
    const siteKey = getRouterParam(event, 'site_key')!;
    if (caller.apiKey) requireSiteAccess(caller.apiKey, siteKey);
    // Before the site lookup: a user limited to some sites learns nothing of the others, not even whether they exist.
    else if (!userMaySee(caller.user!, siteKey)) throw apiError(403, 'forbidden', 'this account may not see this site');
    return { ...caller, site: await findSite(deps.store, siteKey) };
  },
  reader: keyOrUser,
  user: async (event, { store }) => ({ user: await requireUser(event, store) }),
  agentToken: async (event, { store }) => ({ agent: await requireAgent(event, store) }),
  agentTokenOrApiKey: async (event, { store }) =>
    AGENT_TOKEN.test(bearer(event) ?? '') ? { agent: await requireAgent(event, store) } : { apiKey: await requireApiKey(event, store) },
  site: (event, deps, { ownOrigin }) => siteForBrowser(event, deps, { ownOrigin }),
  ingest: async (event, deps, { ownOrigin }) => {
    const caller = await siteForBrowser(event, deps, { ownOrigin });
    deps.checkRate(event, caller.site!);
    return caller;
  },
  reports: async (event, deps) => {
    const caller = await siteForBrowser(event, deps, { opaqueReports: true });
    deps.checkRate(event, caller.site!);
    return caller;
  },
};

/**
 * Runs the route's authentication: what the caller is (key, site, agent), or the HTTP error that
 * refuses it.
 *
 * @example
 * const { site } = await authenticate('ingest', event, deps);
 */
export const authenticate = (auth: Auth, event: H3Event, deps: AuthDeps, options: AuthOptions = {}): Promise<Caller> => checks[auth](event, deps, options);
