import { getRouterParam, type H3, type H3Event } from 'h3';
import type { Site, Store } from '../store/store';
import { allowPreflight } from './cors';
import { methodNotAllowed } from './methodNotAllowed';
import { readJsonBody } from './readJsonBody';
import { siteForRequest } from './siteForRequest';

/** What an ingest handler gets: the checked site and the parsed JSON body. */
/** Answers 429 with `Retry-After` when the client or the site is over its rate. */
export type RateCheck = (event: H3Event, site: Site) => void;

/** What every ingest route family needs from the collector. */
export interface IngestDeps {
  store: Store;
  checkRate: RateCheck;
}

export interface IngestRequest {
  event: H3Event;
  site: Site;
  body: unknown;
  userAgent: string | undefined;
}

/** The 202 body of every accepted submission (design, "Responses"). */
export const accepted = (event: H3Event, count: number) => {
  event.res.status = 202;
  return { status: 'accepted', accepted: count };
};

/**
 * Registers one browser-facing collection endpoint family, the same way for errors, CSP reports
 * and performance sessions: `{path}` for the default site when `unkeyed`, `{path}/{site_key}`,
 * the keyed path's CORS preflight, and 405 with `Allow` for other methods. Every request goes
 * site + origin check -> rate limit -> media type and size -> JSON -> `handle`.
 */
export const ingestRoutes = (
  app: H3,
  {
    store,
    path,
    methods,
    mediaTypes,
    unkeyed,
    handle,
    checkRate,
  }: {
    store: Store;
    checkRate: RateCheck;
    path: string;
    methods: Array<'POST' | 'PUT'>;
    mediaTypes: string[];
    unkeyed: boolean;
    handle: (request: IngestRequest) => Promise<unknown>;
  },
) => {
  const receive = async (event: H3Event, siteKey?: string) => {
    const site = await siteForRequest(event, store, siteKey);
    checkRate(event, site);
    const body = await readJsonBody(event, { mediaTypes });
    const userAgent = event.req.headers.get('user-agent')?.slice(0, 512);
    return handle({ event, site, body, userAgent });
  };
  const keyed = `${path}/:site_key`;
  const keyOf = (event: H3Event) => getRouterParam(event, 'site_key')!;

  for (const method of methods) {
    if (unkeyed) app.on(method, path, (event) => receive(event));
    app.on(method, keyed, (event) => receive(event, keyOf(event)));
  }
  app.options(keyed, async (event) => {
    // The same site and origin checks as the submission: a foreign origin learns nothing more here.
    await siteForRequest(event, store, keyOf(event));
    const origin = event.req.headers.get('origin');
    if (origin) allowPreflight(event, origin, methods);
    event.res.headers.set('allow', [...methods, 'OPTIONS'].join(', '));
    event.res.status = 204;
    return null;
  });
  if (unkeyed) methodNotAllowed(app, path, methods);
  methodNotAllowed(app, keyed, [...methods, 'OPTIONS']);
};
