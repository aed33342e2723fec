import { formatNumber } from '../format';
import type { ProbeOutcome } from './probe';

/** One line of the check's result: passed or not, what happened, and what to do (spec section 7). */
export interface Verdict {
  ok: boolean;
  summary: string;
  advice?: string;
  /** A command the advice asks to run (shown as code after it). */
  command?: string;
}

/** A short, single-line excerpt of an answer's text (shown as text, never as markup). */
const excerpt = (text: string, max = 160) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

/** The `<title>` of an HTML answer (a proxy's or a WAF's challenge page), for the person to recognise it. */
const titleOf = (html: string) => excerpt(/<title[^>]*>([^<]*)/i.exec(html)?.[1] ?? '', 100);

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const checkCommand = (apiBase: string) => `sitebeacon check ${apiBase}`;

/** What no answer means, the same for every request of the check. */
const noAnswer = (outcome: Exclude<ProbeOutcome, { kind: 'answer' }>, apiBase: string): Verdict => {
  switch (outcome.kind) {
    case 'offline':
      return { ok: false, summary: 'Failed: this browser is offline.', advice: 'Connect to a network and run the check again.' };
    case 'timeout':
      return {
        ok: false,
        summary: `Failed: timed out, ${outcome.detail}.`,
        advice: 'An outbound firewall, a proxy or the routing drops the connection (spec section 7). To tell DNS, connection and certificate apart, run this on a machine of this network:',
        command: checkCommand(apiBase),
      };
    case 'csp':
      return {
        ok: false,
        summary: "Failed: blocked by this page's Content-Security-Policy (connect-src).",
        advice: "The collector allows its ingest host in the dashboard's connect-src; a proxy in front of the dashboard that sets its own Content-Security-Policy replaced it. Let the collector's header through.",
      };
    default:
      return {
        ok: false,
        summary: `Failed: network error or blocked (${outcome.detail || 'no detail'}).`,
        advice:
          'Browsers do not say why: the host name did not resolve, the connection was refused or reset, the certificate was refused, ' +
          'a proxy or a browser extension (an ad blocker) blocked the request, or the answer came without CORS headers (not from the collector). ' +
          "See this browser's console, and for the exact cause run this on a machine of this network:",
        command: checkCommand(apiBase),
      };
  }
};

/** A proxy's or WAF's answer instead of the collector's JSON (spec section 7): 403, or an HTML page. */
const intervention = (outcome: Extract<ProbeOutcome, { kind: 'answer' }>, what: string): Verdict | undefined => {
  if (outcome.status != 403 && outcome.mediaType != 'text/html') return undefined;
  const json = parseJson(outcome.text) as { error?: { code?: unknown } } | undefined;
  // The collector's own 403 is JSON with an error code: that is a refusal, not an intervention.
  if (outcome.mediaType != 'text/html' && typeof json?.error?.code == 'string') return undefined;
  const title = outcome.mediaType == 'text/html' ? titleOf(outcome.text) : '';
  return {
    ok: false,
    summary: `Failed: HTTP ${outcome.status}${outcome.mediaType == 'text/html' ? `, an HTML page${title ? ` titled "${title}"` : ''}` : ''} instead of the collector's JSON.`,
    advice: `A proxy or web application firewall answers for this host and path (spec section 7): allow ${what} through it.`,
  };
};

/**
 * The verdict on `GET {api}/test-connectivity` (spec section 4): passed only on `{"status":"success"}`.
 *
 * @example
 * connectivityVerdict('https://in.example/api', { kind: 'answer', ms: 40, status: 200, mediaType: 'application/json', text: '{"status":"success"}' })
 * // { ok: true, summary: 'OK: answered "success" in 40 ms.' }
 */
export const connectivityVerdict = (apiBase: string, outcome: ProbeOutcome): Verdict => {
  if (outcome.kind != 'answer') return noAnswer(outcome, apiBase);
  const blocked = intervention(outcome, `GET ${apiBase}/test-connectivity and the collection paths`);
  if (blocked) return blocked;
  const body = parseJson(outcome.text) as { status?: unknown } | undefined;
  if (outcome.status == 200 && body?.status == 'success') return { ok: true, summary: `OK: answered "success" in ${formatNumber(outcome.ms)} ms.` };
  if (outcome.status >= 500) {
    return { ok: false, summary: `Failed: HTTP ${outcome.status} (${excerpt(outcome.text) || 'no body'}).`, advice: 'The collector or a proxy in front of it failed: see their logs.' };
  }
  return {
    ok: false,
    summary: `Failed: HTTP ${outcome.status}, not a sitebeacon collector's answer (${excerpt(outcome.text) || 'no body'}).`,
    advice: 'Something else answers at this address, or the API base is wrong: use the generated setup URLs, never host names rewritten by hand (spec section 1).',
  };
};

/** What a refused submission usually means, by status (docs/responses.md). */
const refusalAdvice = (status: number) => {
  if (status == 404) return 'The collector does not know this site key at this address: use the generated setup of this site.';
  if (status == 401 || status == 403) return "The collector refuses reports here: check the site's allowed origins, and that this dashboard is opened at the collector's public URL.";
  if (status == 429) return "The collector's request limit is reached (authentication and request limits apply, spec section 7): try again in a minute.";
  if (status >= 500) return 'The collector failed: see its log.';
  return 'The collector refused the report: see its answer.';
};

/**
 * The verdict on the test submission (`POST {api}/error-reports/{site_key}`, error_type
 * "connectivity_check"): spec section 7's "connectivity succeeds but reports fail" shows here.
 *
 * @example
 * submissionVerdict('https://in.example/api', { kind: 'answer', ms: 50, status: 202, mediaType: 'application/json', text: '{"status":"accepted","accepted":1}' }).ok // true
 */
export const submissionVerdict = (apiBase: string, outcome: ProbeOutcome): Verdict => {
  if (outcome.kind != 'answer') return noAnswer(outcome, apiBase);
  const blocked = intervention(outcome, `POST ${apiBase}/error-reports/… (and its OPTIONS preflight)`);
  if (blocked) return blocked;
  if (outcome.status >= 200 && outcome.status < 300) {
    return { ok: true, summary: `OK: accepted (HTTP ${outcome.status}) in ${formatNumber(outcome.ms)} ms, stored as a connectivity check (not counted as an error).` };
  }
  const error = (parseJson(outcome.text) as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const said = typeof error?.code == 'string' ? `${error.code}: ${String(error.message ?? '')}` : outcome.text;
  return { ok: false, summary: `Failed: refused with HTTP ${outcome.status} (${excerpt(said) || 'no body'}).`, advice: refusalAdvice(outcome.status) };
};
