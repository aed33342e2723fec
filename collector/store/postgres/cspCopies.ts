import { awaitedByNewReport, awaitedSideOf, COPY_WINDOW_MS, copyToMergeInto, replacesStoredFields, sideOf } from '../../core/cspCopies';
import type { NewCspReport, ReceiveContext } from '../../core/records';
import { CSP_REPORT_COLUMNS } from '../cspReportColumns';
import { CSP_REPORT_TYPES } from './cspTypes';
import type { Client } from './pool';
import { columns, param } from './rows';

/** Whether any report of a call may be a copy of a stored violation (contract.ts, CspReportStore.insert). */
export const hasCopies = (reports: NewCspReport[]) => reports.some((report) => report.violation_key && report.source);

/** One `store.csp.insert` call whose reports may be copies; `stored` receives how many it stored anew. */
export interface CopiesCall {
  siteKey: string;
  reports: NewCspReport[];
  context: ReceiveContext;
  stored: (count: number) => void;
}

/** A CSP row the batch inserts (batch.ts): what a later copy in the same batch merges into. */
export type CspRow = Record<string, unknown> & { received_at: number; sources?: string[]; awaiting?: string | null };
/** Adds a report's row to the batch, with the sources and awaited side it is stored with, and returns it. */
export type AddCspRow = (siteKey: string, report: NewCspReport, context: ReceiveContext, sources: string[] | undefined, awaiting: string | undefined) => CspRow;

interface Candidate {
  received_at: number;
  sources: string[];
  /** A stored row's id; none for a row this batch inserts. */
  id?: number;
  row?: CspRow;
}

// Each violation's lock, taken in the order of the (sorted) keys: two processes storing copies of
// the same violations lock them in one order and do not deadlock each other.
const LOCK_VIOLATIONS = 'SELECT pg_advisory_xact_lock(hashtextextended(key, 0)) FROM unnest($1::text[]) AS key';

// For each lookup, the first `wanted` stored reports awaiting a copy from its side in its window,
// in csp_reports_awaiting_copy's order (awaitingCopy.ts): one index range each, however often the
// violation was reported.
export const SELECT_COPIES = `SELECT w.n, c.id, c.sources, c.received_at
  FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::int8[], $6::int8[])
    WITH ORDINALITY AS w(site_key, violation_key, awaiting, since, until, wanted, n)
  CROSS JOIN LATERAL (
    SELECT id, sources, received_at FROM csp_reports
    WHERE site_key = w.site_key AND violation_key = w.violation_key AND awaiting = w.awaiting
      AND received_at BETWEEN w.since AND w.until
    ORDER BY received_at, id LIMIT w.wanted
  ) AS c`;

const UPDATE_SOURCES = `UPDATE csp_reports AS r SET sources = u.sources, awaiting = u.awaiting
  FROM unnest($1::int8[], $2::text[], $3::text[]) AS u(id, sources, awaiting) WHERE r.id = u.id`;

const REPLACE_REPORTS = `UPDATE csp_reports AS r SET ${CSP_REPORT_COLUMNS.map((column) => `"${column}" = u."${column}"`).join(', ')},
    sources = u.sources, awaiting = u.awaiting
  FROM unnest($1::int8[], $2::text[], $3::text[], ${CSP_REPORT_TYPES.map((type, index) => `$${index + 4}::${type}[]`).join(', ')})
    AS u(id, sources, awaiting, ${CSP_REPORT_COLUMNS.map((column) => `"${column}"`).join(', ')})
  WHERE r.id = u.id`;

/** A copy merged into a stored report: its new sources and awaited side, and its fields when they replace the stored ones. */
interface Merge {
  id: number;
  sources: string[];
  awaiting: string | null;
  replaceWith?: NewCspReport;
}

/**
 * The CSP reports of a group commit's calls of which some may be copies of one violation (issue
 * 12; core/cspCopies.ts), stored as sqlite/reportWrites.ts stores them one by one, in a handful of
 * statements whatever their number (issue 18: one lock, one SELECT and one INSERT per report before).
 * The violations' advisory locks are taken first, in one statement: a second collector storing a
 * copy of one of them waits for this COMMIT, and then sees these rows (READ COMMITTED). One SELECT
 * reads the stored reports each copy may merge into; the calls' reports are then matched in order,
 * each against those and against the rows this batch inserts before it, as copyToMergeInto() says;
 * merges into stored reports are written by at most two UPDATEs, and the rest goes to `addRow`
 * (the batch's one INSERT). Each call's `stored` receives how many of its reports it stored anew.
 */
export const storeCspCopies = async (client: Client, calls: CopiesCall[], addRow: AddCspRow) => {
  const copies = calls.flatMap(({ siteKey, reports, context }) =>
    reports.flatMap((report) => (report.violation_key && report.source ? [{ siteKey, report, context }] : [])),
  );
  // A copy matches reports of its site and violation that await its side: its "triple".
  const tripleOf = (siteKey: string, violationKey: string, side: string) => `${siteKey}\n${violationKey}\n${side}`;
  const wanted = new Map<string, number>();
  for (const { siteKey, report } of copies) {
    const triple = tripleOf(siteKey, report.violation_key!, sideOf(report.source!));
    wanted.set(triple, (wanted.get(triple) ?? 0) + 1);
  }
  // One lookup per triple and arrival time: the first `wanted` stored candidates in that arrival's
  // window. Copies before this one can take at most wanted - 1 of them, so the one this copy merges
  // into, if any, is among them.
  const lookups = new Map<string, { index: number; values: unknown[] }>();
  for (const { siteKey, report, context } of copies) {
    const side = sideOf(report.source!);
    const triple = tripleOf(siteKey, report.violation_key!, side);
    const key = `${triple}\n${context.received_at}`;
    if (lookups.has(key)) continue;
    const values = [siteKey, report.violation_key, side, context.received_at - COPY_WINDOW_MS, context.received_at + COPY_WINDOW_MS, wanted.get(triple)];
    lookups.set(key, { index: lookups.size + 1, values: values.map(param) });
  }
  const found = new Map<number, Candidate[]>();
  if (copies.length) {
    const violations = [...new Set(copies.map(({ siteKey, report }) => `${siteKey}\n${report.violation_key}`))].sort();
    await client.query({ name: 'lock_violations', text: LOCK_VIOLATIONS, values: [violations.map(param)] });
    const { rows } = await client.query<{ n: number; id: number; sources: string | null; received_at: number }>({
      name: 'select_copies',
      text: SELECT_COPIES,
      values: columns([...lookups.values()].map((lookup) => lookup.values), 6),
    });
    for (const row of rows) {
      const list = found.get(row.n) ?? [];
      list.push({ id: row.id, received_at: row.received_at, sources: JSON.parse(row.sources ?? '[]') as string[] });
      found.set(row.n, list);
    }
  }

  // Stored candidates as they change during this batch (by id), and the rows it inserts (by triple).
  const storedById = new Map<number, Candidate>();
  const inserted = new Map<string, Candidate[]>();
  const merges = new Map<number, Merge>();
  const byArrival = (a: Candidate, b: Candidate) => a.received_at - b.received_at || (a.id === undefined ? 1 : 0) - (b.id === undefined ? 1 : 0) || (a.id ?? 0) - (b.id ?? 0);
  for (const { siteKey, reports, context, stored } of calls) {
    let storedAnew = 0;
    for (const report of reports) {
      if (report.violation_key && report.source) {
        const triple = tripleOf(siteKey, report.violation_key, sideOf(report.source));
        const since = context.received_at - COPY_WINDOW_MS;
        const until = context.received_at + COPY_WINDOW_MS;
        const candidates = [
          ...(found.get(lookups.get(`${triple}\n${context.received_at}`)!.index) ?? []).map((candidate) => storedById.get(candidate.id!) ?? candidate),
          ...(inserted.get(triple) ?? []).filter((candidate) => candidate.received_at >= since && candidate.received_at <= until),
        ].sort(byArrival);
        const target = copyToMergeInto(candidates, report.source);
        if (target) {
          target.sources = [...target.sources, report.source];
          const awaiting = awaitedSideOf(target.sources) ?? null;
          if (target.row) {
            target.row.sources = target.sources;
            target.row.awaiting = awaiting;
            if (replacesStoredFields(report.source)) for (const column of CSP_REPORT_COLUMNS) target.row[column] = report[column];
          } else {
            storedById.set(target.id!, target);
            const earlier = merges.get(target.id!);
            const replaceWith = replacesStoredFields(report.source) ? report : earlier?.replaceWith;
            merges.set(target.id!, { id: target.id!, sources: target.sources, awaiting, ...(replaceWith ? { replaceWith } : {}) });
          }
          continue;
        }
      }
      storedAnew += 1;
      const awaiting = awaitedByNewReport(report.violation_key, report.source);
      const row = addRow(siteKey, report, context, report.source ? [report.source] : undefined, awaiting);
      if (awaiting) {
        const triple = tripleOf(siteKey, report.violation_key!, awaiting);
        inserted.set(triple, [...(inserted.get(triple) ?? []), { received_at: context.received_at, sources: row.sources!, row }]);
      }
    }
    stored(storedAnew);
  }

  const updates = [...merges.values()];
  const sourcesOnly = updates.filter((merge) => !merge.replaceWith).map((merge) => [merge.id, param(merge.sources), merge.awaiting]);
  if (sourcesOnly.length) await client.query({ name: 'update_csp_sources', text: UPDATE_SOURCES, values: columns(sourcesOnly, 3) });
  const replacing = updates
    .filter((merge) => merge.replaceWith)
    .map((merge) => [merge.id, param(merge.sources), merge.awaiting, ...CSP_REPORT_COLUMNS.map((column) => param(merge.replaceWith![column]))]);
  if (replacing.length) await client.query({ name: 'replace_csp_reports', text: REPLACE_REPORTS, values: columns(replacing, 3 + CSP_REPORT_COLUMNS.length) });
};
