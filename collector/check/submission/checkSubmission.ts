import { hostname } from 'node:os';
import type { CheckContext, Endpoint } from '../checkContext';
import { answerExcerpt } from '../exchange/answerExcerpt';
import { checkFailure, EXIT_CODES } from '../checkFailure';
import { describeRedirect } from './checkConnectivity';
import type { RunStep } from '../report/createReporter';
import { describeIntervention } from '../report/describeIntervention';
import { openConnection, type Route } from '../connection/openConnection';
import { printable } from '../report/printable';
import { sendRequest } from '../exchange/sendRequest';
import { CONNECTIVITY_CHECK } from '../../core/connectivityCheck';

/** What a refusal usually means, by status (docs/responses.md). */
const hint = (status: number, retryAfter: string | undefined) => {
  if (status == 404) return 'the collector does not know this site key: check --site against the site\'s generated setup';
  if (status == 401 || status == 403) return 'the collector refuses this submission: check the site\'s credentials and allowed origins';
  if (status == 429) return `the collector's request limit is reached${retryAfter ? ` (Retry-After: ${printable(retryAfter, 20)} s)` : ''}`;
  if (status >= 500) return 'the collector failed: see its log';
  return 'the collector refused the report';
};

/**
 * The `submission` step (`--site`): one real `POST {api}/error-reports/{site_key}` with
 * `error_type` "connectivity_check", the case spec section 7 calls "connectivity succeeds but
 * reports fail". Refused: exit 8 with the answer's status and body; a proxy or WAF page instead:
 * exit 6. Sent without `Origin`, as a server sends, so that the site's origin list does not apply.
 *
 * @example
 * await checkSubmission(context, route, 'a1b2c3', reporter.step);
 */
export const checkSubmission = (context: CheckContext, route: Route, siteKey: string, step: RunStep) =>
  step('submission', async (say) => {
    const { target } = context;
    const endpoint: Endpoint = { host: target.host, port: target.port, secure: target.secure };
    const url = new URL(`${target.apiBase}/error-reports/${encodeURIComponent(siteKey)}`);
    const socket = await openConnection(context, endpoint, route);
    const body = JSON.stringify({ error_type: CONNECTIVITY_CHECK, error_message: `sitebeacon check from ${hostname()}` });
    const answer = await sendRequest(context, socket, { url, method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const intervention = describeIntervention(answer, 'POST', url);
    if (intervention) throw checkFailure(EXIT_CODES.intervention, intervention);
    if (answer.status >= 300 && answer.status < 400) throw describeRedirect(answer, 'POST', url);
    if (answer.status < 200 || answer.status >= 300) {
      const retryAfter = answer.headers['retry-after'];
      throw checkFailure(EXIT_CODES.submission, `POST ${url.href} was refused: ${answerExcerpt(answer)}; ${hint(answer.status, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter)}`);
    }
    say(`POST ${url.href} accepted a test report (${answerExcerpt(answer, 120)}), stored as error_type "connectivity_check"`);
  });
