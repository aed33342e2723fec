import type { H3Event } from 'h3';

/** Browsers cap preflight caching (Chromium at 2 hours); asking for more gains nothing. */
const PREFLIGHT_MAX_AGE = '7200';

const setBoth = (event: H3Event, name: string, value: string) => {
  event.res.headers.set(name, value);
  // Error answers need the CORS headers too, or the beacon cannot read their status.
  event.res.errHeaders.set(name, value);
};

/**
 * Lets `origin` read this response. The collector answers only origins allowed for the site,
 * never `*`, so the answer varies by Origin.
 */
export const allowOrigin = (event: H3Event, origin: string) => {
  setBoth(event, 'access-control-allow-origin', origin);
  setBoth(event, 'vary', 'Origin');
};

/** The preflight headers for an allowed origin. */
export const allowPreflight = (event: H3Event, origin: string, methods: string[]) => {
  allowOrigin(event, origin);
  event.res.headers.set('access-control-allow-methods', methods.join(', '));
  event.res.headers.set('access-control-allow-headers', 'Content-Type');
  event.res.headers.set('access-control-max-age', PREFLIGHT_MAX_AGE);
};
