import { awaitedByNewReport, awaitedSideOf, COPY_WINDOW_MS, copyToMergeInto, replacesStoredFields, sideOf } from '../../core/cspCopies';
import { selectCopyToMergeInto } from '../awaitingCopy';
import type { NewCspReport, ReceiveContext } from '../../core/records';
import { CSP_COLUMNS, CSP_REPORT_COLUMNS } from '../cspReportColumns';
import { CSP_TYPES, insertRows, UPSERT_CSP_GROUPS } from './batch';
import type { Client } from './pool';
import { param, run } from './rows';

const DAY = 86_400_000;

const SELECT_COPY = selectCopyToMergeInto((index) => `$${index}`);
const REPLACE_REPORT = `UPDATE csp_reports SET ${CSP_REPORT_COLUMNS.map((column, index) => `"${column}" = $${index + 2}`).join(', ')},
  sources = $${CSP_REPORT_COLUMNS.length + 2}, awaiting = $${CSP_REPORT_COLUMNS.length + 3} WHERE id = $1`;

/** Whether any report of a call may be a copy of a stored violation (contract.ts, CspReportStore.insert). */
export const hasCopies = (reports: NewCspReport[]) => reports.some((report) => report.violation_key && report.source);

/**
 * CSP reports of which some may be copies of one violation (issue 12; core/cspCopies.ts), stored as
 * sqlite/reports.ts does: one by one in the group's transaction, each matched against the stored
 * reports of its violation key (and the ones before it in this call) and merged into the copy
 * copyToMergeInto() names, or inserted. Two collectors receiving the two copies at once: the
 * transaction-level advisory lock on the site and violation key makes the second wait for the
 * first's COMMIT, and its SELECT then sees the first copy (READ COMMITTED). Resolves to the number
 * stored anew.
 */
export const storeCspCopies = async (client: Client, siteKey: string, reports: NewCspReport[], { received_at, user_agent }: ReceiveContext) => {
  const groups = new Map<string, unknown[]>();
  let stored = 0;
  for (const report of reports) {
    if (report.violation_key && report.source) {
      await run(client, 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${siteKey}\n${report.violation_key}`], 'lock_violation');
      const { rows } = await run<{ id: number; sources: string | null }>(
        client, SELECT_COPY, [siteKey, report.violation_key, sideOf(report.source), received_at - COPY_WINDOW_MS, received_at + COPY_WINDOW_MS], 'select_copy',
      );
      const target = copyToMergeInto(rows.map((row) => ({ id: row.id, sources: JSON.parse(row.sources ?? '[]') as string[] })), report.source);
      if (target) {
        const sources = [...target.sources, report.source];
        const awaiting = awaitedSideOf(sources) ?? null;
        if (replacesStoredFields(report.source)) {
          await run(client, REPLACE_REPORT, [target.id, ...CSP_REPORT_COLUMNS.map((column) => report[column]), sources, awaiting], 'replace_csp_report');
        } else {
          await run(client, 'UPDATE csp_reports SET sources = $2, awaiting = $3 WHERE id = $1', [target.id, sources, awaiting], 'update_csp_sources');
        }
        continue;
      }
    }
    stored += 1;
    const awaiting = awaitedByNewReport(report.violation_key, report.source);
    const row = { ...report, site_key: siteKey, received_at, user_agent, sources: report.source ? [report.source] : undefined, awaiting };
    await insertRows(client, 'csp_reports', CSP_COLUMNS, CSP_TYPES, [row]);
    if (report.report_type != 'csp-violation' || !report.effective_directive) continue;
    const day = Math.floor(received_at / DAY);
    const key = `${report.effective_directive}\n${report.blocked_host}`;
    const group = groups.get(key) ?? [siteKey, report.effective_directive, report.blocked_host, day, 0];
    group[4] = (group[4] as number) + 1;
    groups.set(key, group);
  }
  if (groups.size) {
    const rows = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row.map(param));
    await client.query({ name: 'upsert_csp_groups', text: UPSERT_CSP_GROUPS, values: Array.from({ length: 5 }, (_, column) => rows.map((row) => row[column])) });
  }
  return stored;
};
