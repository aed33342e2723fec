import type { Socket } from 'node:net';
import type { CheckContext } from '../checkContext';
import { answerExcerpt } from '../exchange/answerExcerpt';
import { checkFailure, EXIT_CODES } from '../checkFailure';
import type { RunStep } from '../report/createReporter';
import { describeIntervention } from '../report/describeIntervention';
import type { HttpAnswer } from '../exchange/httpExchange';
import { printable } from '../report/printable';
import { sendRequest } from '../exchange/sendRequest';

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** A redirect: to another origin, something in the way sends it elsewhere; on the same, the base URL is off. */
export const describeRedirect = (answer: HttpAnswer, method: string, url: URL) => {
  const location = String(answer.headers.location ?? '');
  let to: URL | undefined;
  try {
    to = new URL(location, url);
  } catch {
    to = undefined;
  }
  const where = printable(to?.href ?? location, 200) || '(no Location)';
  if (to && to.origin != url.origin) {
    return checkFailure(
      EXIT_CODES.intervention,
      `HTTP ${answer.status} for ${method} ${url.href} redirects to ${where}, another host: a proxy, captive portal or web application firewall is intervening for this host and path`,
    );
  }
  return checkFailure(EXIT_CODES.notCollector, `HTTP ${answer.status} for ${method} ${url.href} redirects to ${where}: a wrong base URL; give the API base itself`);
};

/**
 * The `http` step: `GET {api}/test-connectivity` on the connection the earlier steps opened
 * (spec section 4) must answer 200 `{"status":"success"}`. A 403 or an HTML page is a proxy or
 * WAF in the way (exit 6, with the page's title); any other answer means this is not a sitebeacon
 * collector or the base URL is wrong (exit 7).
 *
 * @example
 * await checkConnectivity(context, socket, reporter.step);
 */
export const checkConnectivity = (context: CheckContext, socket: Socket, step: RunStep) =>
  step('http', async (say) => {
    const url = new URL(`${context.target.apiBase}/test-connectivity`);
    const answer = await sendRequest(context, socket, { url, method: 'GET' });
    const intervention = describeIntervention(answer, 'GET', url);
    if (intervention) throw checkFailure(EXIT_CODES.intervention, intervention);
    if (answer.status >= 300 && answer.status < 400) throw describeRedirect(answer, 'GET', url);
    const body = parseJson(answer.body) as { status?: unknown } | undefined;
    if (answer.status != 200 || body?.status !== 'success') {
      throw checkFailure(
        EXIT_CODES.notCollector,
        `GET ${url.href} answered ${answerExcerpt(answer, 200)}, not 200 {"status":"success"}: this is not a sitebeacon collector, or the base URL is wrong (use the generated API base, ending with /api)`,
      );
    }
    say(`GET ${url.href} answered 200 {"status":"success"} (this proves connectivity only, not credentials or storage)`);
  });
