import { awaitedByNewReport, COPY_WINDOW_MS, copyToMergeInto, replacesStoredFields, sideOf, sourcesWithCopy } from '../../core/cspCopies';
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
/** What a CSP report is counted in csp_groups by. */
export type CountedCsp = Pick<NewCspReport, 'report_type' | 'effective_directive' | 'blocked_host' | 'disposition'> & { received_at: number };
/** Adds `delta` to the csp_groups count of a report's group (batch.ts). */
export type CountCspGroup = (siteKey: string, report: CountedCsp, delta: number) => void;

interface Candidate {
  received_at: number;
  sources: string[];
  /** A stored row's id; none for a row this batch inserts. */
  id?: number;
  /** A stored row's fields as its group counts them. */
  counted?: CountedCsp;
  row?: CspRow;
  /** Once a copy merged into a stored row: the side it then awaits, and the report whose fields replace its own. */
  awaiting?: string | null;
  replaceWith?: NewCspReport;
}

// Each violation's lock, taken in the order of the (sorted) keys: two processes storing copies of
// the same violations lock them in one order and do not deadlock each other.
const LOCK_VIOLATIONS = 'SELECT pg_advisory_xact_lock(hashtextextended(key, 0)) FROM unnest($1::text[]) AS key';

// For each lookup, the first `wanted` stored reports awaiting a copy from its side in its window,
// in csp_reports_awaiting_copy's order (awaitingCopy.ts): one index range each, however often the
// violation was reported.
export const SELECT_COPIES = `SELECT w.n, c.id, c.sources, c.received_at, c.report_type, c.effective_directive, c.blocked_host, c.disposition
  FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::int8[], $6::int8[])
    WITH ORDINALITY AS w(site_key, violation_key, awaiting, since, until, wanted, n)
  CROSS JOIN LATERAL (
    SELECT id, sources, received_at, report_type, effective_directive, blocked_host, disposition FROM csp_reports
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

/**
 * The CSP reports of a group commit's calls of which some may be copies of one violation
 * (docs/csp-reports.md; core/cspCopies.ts), stored as sqlite/reportWrites.ts stores them one by one, in a handful of
 * statements whatever their number, not a lock, a SELECT and an INSERT per report (docs/performance.md).
 * The violations' advisory locks are taken first, in one statement: a second collector storing a
 * copy of one of them waits for this COMMIT, and then sees these rows (READ COMMITTED). One SELECT
 * reads the stored reports the copies may merge into; the calls' reports are then matched in order,
 * each against those and against the rows this batch inserts before it, as copyToMergeInto() says;
 * merges into stored reports are written by at most two UPDATEs, and the rest goes to `addRow`
 * (the batch's one INSERT). Each call's `stored` receives how many of its reports it stored anew.
 * A copy whose fields replace a report's moves its count in csp_groups to the group its fields
 * name (`countGroup`): its disposition may differ (docs/csp-reports.md, "Blocked first").
 */
export const storeCspCopies = async (client: Client, calls: CopiesCall[], addRow: AddCspRow, countGroup: CountCspGroup) => {
  // A copy matches the reports of its site and violation that await its side: its "triple". One
  // lookup per triple reads the first `wanted` (its number of copies) stored candidates within
  // the calls' windows: copies before one take at most wanted - 1, so the one it merges into is
  // among them, unless the calls' windows differ and older candidates, outside its own window,
  // filled the list (a copy of the oldest call's first millisecond): that copy then reads its own
  // window, through the same SELECT.
  const lookups = new Map<string, Lookup>();
  for (const { siteKey, reports, context } of calls) {
    for (const report of reports) {
      if (!report.violation_key || !report.source) continue;
      const side = sideOf(report.source);
      const triple = `${siteKey}\n${report.violation_key}\n${side}`;
      const lookup = lookups.get(triple) ?? { siteKey, violationKey: report.violation_key, side, since: Infinity, until: -Infinity, wanted: 0, found: [] };
      lookup.since = Math.min(lookup.since, context.received_at - COPY_WINDOW_MS);
      lookup.until = Math.max(lookup.until, context.received_at + COPY_WINDOW_MS);
      lookup.wanted += 1;
      lookups.set(triple, lookup);
    }
  }
  if (lookups.size) {
    const violations = [...new Set([...lookups.values()].map((lookup) => `${lookup.siteKey}\n${lookup.violationKey}`))].sort();
    await client.query({ name: 'lock_violations', text: LOCK_VIOLATIONS, values: [violations.map(param)] });
    await readCandidates(client, [...lookups.values()]);
  }

  // Stored candidates this batch merged copies into, as it changed them (by id: what it updates),
  // and the rows it inserts (by triple).
  const merged = new Map<number, Candidate>();
  const inserted = new Map<string, Candidate[]>();
  for (const { siteKey, reports, context, stored } of calls) {
    let storedAnew = 0;
    for (const report of reports) {
      if (report.violation_key && report.source) {
        const triple = `${siteKey}\n${report.violation_key}\n${sideOf(report.source)}`;
        const lookup = lookups.get(triple)!;
        const inWindow = (candidate: Candidate) => Math.abs(candidate.received_at - context.received_at) <= COPY_WINDOW_MS;
        const pending = (inserted.get(triple) ?? []).filter(inWindow);
        const storedCandidates = lookup.found.map((candidate) => merged.get(candidate.id!) ?? candidate).filter(inWindow);
        let target = copyToMergeInto([...storedCandidates, ...pending].sort(byArrival), report.source);
        if (!target && lookup.found.length == lookup.wanted) {
          // Its own window: of its first candidates, this batch has taken at most as many as it merged.
          const own: Lookup = { ...lookup, since: context.received_at - COPY_WINDOW_MS, until: context.received_at + COPY_WINDOW_MS, wanted: merged.size + 1, found: [] };
          await readCandidates(client, [own]);
          target = copyToMergeInto([...own.found.map((candidate) => merged.get(candidate.id!) ?? candidate), ...pending].sort(byArrival), report.source);
        }
        if (target) {
          const { sources, awaiting } = sourcesWithCopy(target.sources, report.source);
          target.sources = sources;
          if (target.row) {
            target.row.sources = target.sources;
            target.row.awaiting = awaiting;
            if (replacesStoredFields(report.source)) {
              countGroup(siteKey, target.row as CountedCsp, -1);
              for (const column of CSP_REPORT_COLUMNS) target.row[column] = report[column];
              countGroup(siteKey, target.row as CountedCsp, 1);
            }
          } else {
            target.awaiting = awaiting;
            if (replacesStoredFields(report.source)) {
              target.replaceWith = report;
              countGroup(siteKey, target.counted!, -1);
              countGroup(siteKey, { ...report, received_at: target.received_at }, 1);
            }
            merged.set(target.id!, target);
          }
          continue;
        }
      }
      storedAnew += 1;
      const awaiting = awaitedByNewReport(report.violation_key, report.source);
      const row = addRow(siteKey, report, context, report.source ? [report.source] : undefined, awaiting);
      if (!awaiting) continue;
      const triple = `${siteKey}\n${report.violation_key}\n${awaiting}`;
      const list = inserted.get(triple) ?? [];
      list.push({ received_at: context.received_at, sources: row.sources!, row });
      inserted.set(triple, list);
    }
    stored(storedAnew);
  }

  const updates = [...merged.values()];
  const sourcesOnly = updates.filter((merge) => !merge.replaceWith).map((merge) => [merge.id, param(merge.sources), merge.awaiting ?? null]);
  if (sourcesOnly.length) await client.query({ name: 'update_csp_sources', text: UPDATE_SOURCES, values: columns(sourcesOnly, 3) });
  const replacing = updates
    .filter((merge) => merge.replaceWith)
    .map((merge) => [merge.id, param(merge.sources), merge.awaiting ?? null, ...CSP_REPORT_COLUMNS.map((column) => param(merge.replaceWith![column]))]);
  if (replacing.length) await client.query({ name: 'replace_csp_reports', text: REPLACE_REPORTS, values: columns(replacing, 3 + CSP_REPORT_COLUMNS.length) });
};

/** One lookup of SELECT_COPIES: a triple, the union of its copies' windows, and what it found. */
interface Lookup {
  siteKey: string;
  violationKey: string;
  side: string;
  since: number;
  until: number;
  wanted: number;
  found: Candidate[];
}

/** Candidates in csp_reports_awaiting_copy's order: by arrival, stored ones (by id) before this batch's own at one time. */
const byArrival = (a: Candidate, b: Candidate) =>
  a.received_at - b.received_at || Number(a.id === undefined) - Number(b.id === undefined) || (a.id ?? 0) - (b.id ?? 0);

/** Runs SELECT_COPIES for `lookups`: each one's candidates, in order, into its `found`. */
const readCandidates = async (client: Client, lookups: Lookup[]) => {
  const { rows } = await client.query<{ n: number; id: number; sources: string | null } & CountedCsp>({
    name: 'select_copies',
    text: SELECT_COPIES,
    values: columns(lookups.map(({ siteKey, violationKey, side, since, until, wanted }) => [siteKey, violationKey, side, since, until, wanted].map(param)), 6),
  });
  // `n` is the lookup's ordinality in the arrays, from 1.
  for (const { n, id, sources, ...counted } of rows) {
    lookups[n - 1]!.found.push({ id, received_at: counted.received_at, sources: JSON.parse(sources ?? '[]') as string[], counted });
  }
};
