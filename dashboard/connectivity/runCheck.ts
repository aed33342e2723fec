import { probe, type ProbeOptions } from './probe';
import { connectivityVerdict, submissionVerdict, type Verdict } from './verdicts';

/** The error_type of a test submission (collector/core/connectivityCheck.ts): stored, never counted. */
const CONNECTIVITY_CHECK = 'connectivity_check';

/** One row of the check's result. */
export interface CheckRow {
  id: 'ingest' | 'main' | 'submission';
  label: string;
  url: string;
  verdict: Verdict;
}

/** The hosts of a site's generated setup (GET /api/v1/sites/{site_key}/setup). */
export interface CheckTarget {
  siteKey: string;
  /** `{base_url}`: the API base of the ingest host, where the beacon sends. */
  apiBase: string;
  /** The legacy API base of the main (app) host: the WordPress plugin's fallback and the agents' host. */
  mainApiBase: string;
}

/**
 * The setup page's connectivity check from the site owner's browser (spec section 5.2: the ingest
 * host and the main host separately, without a key): `GET test-connectivity` on each, in parallel,
 * then, with `submit` and a reachable ingest host, one real error report of type
 * "connectivity_check" for the site, as the beacon sends it (JSON, so with a CORS preflight).
 * When both API bases are one, that host is checked once.
 *
 * @example
 * const rows = await runCheck({ siteKey, apiBase: 'https://in.example/api', mainApiBase: 'https://app.example/api' }, { submit: true, timeoutMs: 20_000 });
 */
export const runCheck = async (target: CheckTarget, { submit, ...options }: ProbeOptions & { submit: boolean; from?: string }): Promise<CheckRow[]> => {
  const same = target.apiBase == target.mainApiBase;
  const hosts: Array<Omit<CheckRow, 'verdict'> & { apiBase: string }> = [
    { id: 'ingest', label: same ? 'Ingest and main host (one host)' : 'Ingest host', url: `${target.apiBase}/test-connectivity`, apiBase: target.apiBase },
    ...(same ? [] : [{ id: 'main' as const, label: 'Main host', url: `${target.mainApiBase}/test-connectivity`, apiBase: target.mainApiBase }]),
  ];
  const rows: CheckRow[] = await Promise.all(
    hosts.map(async ({ apiBase, ...host }) => ({ ...host, verdict: connectivityVerdict(apiBase, await probe(host.url, { method: 'GET' }, options)) })),
  );
  if (!submit) return rows;
  const url = `${target.apiBase}/error-reports/${encodeURIComponent(target.siteKey)}`;
  const label = 'Test report to the ingest host';
  if (!rows[0]!.verdict.ok) {
    return [...rows, { id: 'submission', label, url, verdict: { ok: false, summary: 'Not sent: the ingest host did not answer the connectivity check.' } }];
  }
  const body = JSON.stringify({ error_type: CONNECTIVITY_CHECK, error_message: `sitebeacon check from the dashboard${options.from ? ` on ${options.from}` : ''}` });
  const outcome = await probe(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }, options);
  return [...rows, { id: 'submission', label, url, verdict: submissionVerdict(target.apiBase, outcome) }];
};
