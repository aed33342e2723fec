import type { Request } from '@playwright/test';
import type { BeaconProblem } from './problems';

/** Reads the collector's error body (`{"error":{"code","message"}}`, docs/responses.md). */
export const errorDetail = (body: string): string => {
  try {
    const { error } = JSON.parse(body) as { error?: { code?: string; message?: string } };
    if (error?.code) return `${error.code}: ${error.message ?? ''}`;
  } catch {}
  return body.slice(0, 300);
};

const frameOrigin = (request: Request) => {
  try {
    const origin = new URL(request.frame().url()).origin;
    return origin == 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
};

/**
 * Why a report request failed in the browser. A browser says little: a refused CORS preflight
 * (the page's origin is not allowed for the site: the collector answers 403 `origin_not_allowed`)
 * is a bare network error to the page and to Playwright. So the fixture asks the same preflight
 * itself, from Node, with the page's Origin, and reports the collector's own answer when it refuses.
 *
 * @example
 * addProblem(await diagnoseFailure(request, 'net::ERR_FAILED'));
 */
export const diagnoseFailure = async (request: Request, errorText: string): Promise<BeaconProblem> => {
  // The browser adds Origin after Playwright sees the request; the frame's origin is the same.
  const origin = (await request.allHeaders().catch(() => request.headers())).origin ?? frameOrigin(request);
  if (origin) {
    const preflight = await fetch(request.url(), {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': request.method(), 'access-control-request-headers': 'content-type' },
    }).catch(() => undefined);
    if (preflight && preflight.status >= 400) {
      return { kind: 'refused', url: request.url(), status: preflight.status, detail: errorDetail(await preflight.text()) };
    }
  }
  return { kind: 'failed', url: request.url(), detail: errorText };
};
