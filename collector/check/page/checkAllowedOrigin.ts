import { answerExcerpt } from '../exchange/answerExcerpt';
import type { CheckContext, Endpoint } from '../checkContext';
import { checkFailure, EXIT_CODES } from '../checkFailure';
import { openConnection, type Route } from '../connection/openConnection';
import { sendRequest } from '../exchange/sendRequest';

/**
 * Does the site accept reports from `pageOrigin`? Asked as the browser asks it: the CORS preflight
 * `OPTIONS {api}/error-reports/{site_key}` with the page's `Origin` (spec section 4), which the
 * collector answers only for the site's allowed origins (docs/access.md, "Sites and origins": 403
 * `origin_not_allowed` otherwise). It needs no key and stores nothing. Resolves with the step's detail; fails with exit 9.
 *
 * @example
 * await checkAllowedOrigin(context, route, 'a1b2c3', 'https://shop.example');
 */
export const checkAllowedOrigin = async (context: CheckContext, route: Route, siteKey: string, pageOrigin: string): Promise<string> => {
  const { target } = context;
  const endpoint: Endpoint = { host: target.host, port: target.port, secure: target.secure };
  const url = new URL(`${target.apiBase}/error-reports/${encodeURIComponent(siteKey)}`);
  const socket = await openConnection(context, endpoint, route);
  const answer = await sendRequest(context, socket, {
    url,
    method: 'OPTIONS',
    headers: { origin: pageOrigin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  const allowed = answer.headers['access-control-allow-origin'];
  if (answer.status >= 200 && answer.status < 300 && (allowed == pageOrigin || allowed == '*')) {
    return `the site ${siteKey} accepts reports from ${pageOrigin} (preflight OPTIONS ${url.pathname} answered ${answer.status})`;
  }
  if (answer.status == 403) {
    throw checkFailure(
      EXIT_CODES.page,
      `the site ${siteKey} does not allow the page's origin ${pageOrigin}: its browsers' reports are refused (403 origin_not_allowed); add ${pageOrigin} to the site's allowed origins`,
    );
  }
  throw checkFailure(EXIT_CODES.page, `the preflight OPTIONS ${url.href} with Origin ${pageOrigin} answered ${answerExcerpt(answer, 200)}: browsers on ${pageOrigin} cannot send reports`);
};
