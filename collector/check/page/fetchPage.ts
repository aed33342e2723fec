import { endpointOf, type CheckContext } from '../checkContext';
import { CheckFailure, checkFailure, EXIT_CODES } from '../checkFailure';
import type { HttpAnswer } from '../exchange/httpExchange';
import { openConnection, routeTo } from '../connection/openConnection';
import { printable } from '../report/printable';
import { sendRequest } from '../exchange/sendRequest';

/** Redirects a page may take before the check gives up, as browsers allow about 20. */
const MAX_REDIRECTS = 10;

/**
 * Fetches the page given with `--page` as a browser would navigate to it (following redirects,
 * with verified TLS, through the same proxy rules), and resolves with its final URL and answer.
 * Whatever stops it fails the page step (exit 9): the exit codes 3 to 8 describe the way to the
 * collector, not to the page.
 *
 * @example
 * const { url, answer } = await fetchPage(context, new URL('https://shop.example/cart'));
 */
export const fetchPage = async (context: CheckContext, start: URL): Promise<{ url: URL; answer: HttpAnswer }> => {
  let url = start;
  try {
    for (let hop = 0; ; hop++) {
      const endpoint = endpointOf(url);
      const socket = await openConnection(context, endpoint, await routeTo(context, endpoint));
      const answer = await sendRequest(context, socket, { url, method: 'GET', headers: { accept: 'text/html,application/xhtml+xml' } });
      const location = answer.headers.location;
      if (answer.status < 300 || answer.status >= 400 || !location) {
        if (answer.status < 200 || answer.status >= 300) {
          throw checkFailure(EXIT_CODES.page, `the page ${url.href} answered ${answer.status}, not the page itself: give --page the address of a page that loads the beacon`);
        }
        return { url, answer };
      }
      if (hop == MAX_REDIRECTS) throw checkFailure(EXIT_CODES.page, `the page ${start.href} redirects more than ${MAX_REDIRECTS} times`);
      const next = new URL(location, url);
      if (next.protocol != 'https:' && next.protocol != 'http:') throw checkFailure(EXIT_CODES.page, `the page redirects to ${printable(next.href, 200)}, not a web page`);
      url = next;
    }
  } catch (error) {
    if (error instanceof CheckFailure && error.exitCode == EXIT_CODES.page) throw error;
    const cause = error instanceof CheckFailure ? error.message : printable(String((error as Error)?.message ?? error), 200);
    throw checkFailure(EXIT_CODES.page, `could not fetch the page ${url.href} from this machine: ${cause}`);
  }
};
