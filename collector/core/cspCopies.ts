import { hash } from 'node:crypto';
import type { CspReport, CspSource } from './records';

export type { CspSource };

export const CSP_SOURCES: readonly CspSource[] = ['beacon', 'report-uri', 'report-to'];

/**
 * How far apart the beacon's copy and the browser's own report of one violation may arrive.
 * Both leave the page within a second of the violation, but Chromium batches Reporting API
 * reports for up to a minute and retries failed uploads, and the beacon retries with backoff up
 * to a minute a try (beacon/transport.ts): ten minutes covers both with room.
 */
export const COPY_WINDOW_MS = 10 * 60_000;

/** Where a copy of a violation comes from: the beacon's copy, or the browser's own report (either kind). */
export type CopySide = 'beacon' | 'browser';

/**
 * The beacon's copy on one side, the browser's own report (either kind) on the other.
 *
 * @example
 * sideOf('report-uri'); // 'browser'
 */
export const sideOf = (source: string): CopySide => (source == 'beacon' ? 'beacon' : 'browser');

/**
 * The side whose copy a stored report of a violation still lacks, from its `sources`: a new copy
 * merges into it only when it comes from that side (copyToMergeInto). Undefined once it holds
 * both, or none. Stores keep it in an indexed column (`awaiting`), so that finding the report a
 * copy merges into reads one index entry, however often the violation was reported (a scan of
 * every stored copy in COPY_WINDOW_MS slowed ingest of one popular violation down as its copies
 * piled up: docs/performance.md, "The writer thread").
 *
 * @example
 * awaitedSideOf(['report-to']);           // 'beacon'
 * awaitedSideOf(['beacon', 'report-to']); // undefined
 */
export const awaitedSideOf = (sources: readonly string[]): CopySide | undefined => {
  const sides = new Set(sources.map(sideOf));
  return sides.size != 1 ? undefined : sides.has('beacon') ? 'browser' : 'beacon';
};

/**
 * The side a report stored anew awaits: the other side than its own, for a violation with a source
 * (what copies are matched against); none for any other report, which no copy merges into.
 *
 * @example
 * awaitedByNewReport('3f2a9c1b7e0d4a61', 'report-uri'); // 'beacon'
 * awaitedByNewReport(undefined, 'beacon');               // undefined
 */
export const awaitedByNewReport = (violationKey: string | null | undefined, source: string | null | undefined) =>
  violationKey && source ? awaitedSideOf([source]) : undefined;

/**
 * The key two copies of one violation share: the same document, effective directive, blocked URI
 * and position (line and column; absent and 0 both mean "unknown", and so does a column without a
 * line). The source file is left out:
 * Chromium's report drops its query where its event keeps it. 16 hex characters of SHA-256;
 * undefined for a report that is not a CSP violation. Call it on a normalised report
 * (schemas/cspReport.ts): URLs as reportUrl() leaves them, the directive bare.
 *
 * @example
 * violationKeyOf({ report_type: 'csp-violation', document_uri: 'https://shop.example/', effective_directive: 'img-src', blocked_uri: 'https://cdn.example/x.png', line_number: 9 });
 */
export const violationKeyOf = (report: CspReport): string | undefined => {
  const parts = violationParts(report);
  return parts && hash('sha256', JSON.stringify(parts), 'hex').slice(0, 16);
};

/** What violationKeyOf hashes: undefined for a report that is not a CSP violation. */
const violationParts = (report: CspReport) => {
  if (report.report_type != 'csp-violation' || !report.effective_directive || report.document_uri === undefined) return undefined;
  // A column without a line says nothing: WebKitGTK 2.50's event gives a blocked <img> line 0 and
  // column 1 where its own report gives neither (the cross-browser suite, e2e/browsers).
  const line = report.line_number ?? 0;
  return [report.document_uri, report.effective_directive, report.blocked_uri ?? '', line, line ? (report.column_number ?? 0) : 0];
};

/**
 * One violation, one count (docs/csp-reports.md, "One violation, one count: copies"): the stored report a new copy of the same violation
 * (same site and violation key, received within COPY_WINDOW_MS) merges into. That is the oldest
 * candidate holding no copy from the new one's side (the side it awaits, awaitedSideOf): a stored
 * report holds at most one beacon copy
 * and one browser report. So two copies from the same side are never merged (a page that
 * violates twice is counted twice), `report-uri` and `report-to` never merge with each other (two
 * policies violated), and N copies from one side and M from the other make max(N, M) reports,
 * in any order of arrival. Undefined: store the copy as a new report.
 *
 * @example
 * copyToMergeInto([{ id: 1, sources: ['beacon'] }], 'report-uri'); // { id: 1, sources: ['beacon'] }
 * copyToMergeInto([{ id: 1, sources: ['report-uri'] }], 'report-to'); // undefined
 */
export const copyToMergeInto = <T extends { sources: readonly string[] }>(candidates: readonly T[], source: CspSource): T | undefined =>
  candidates.find((candidate) => awaitedSideOf(candidate.sources) == sideOf(source));

/**
 * A stored report's sources once a copy from `source` is merged into it, and the side it then
 * awaits: null once it holds both sides, as the stores' `awaiting` column keeps it.
 *
 * @example
 * sourcesWithCopy(['report-to'], 'beacon'); // { sources: ['report-to', 'beacon'], awaiting: null }
 */
export const sourcesWithCopy = (sources: readonly string[], source: CspSource) => {
  const merged = [...sources, source];
  return { sources: merged, awaiting: awaitedSideOf(merged) ?? null };
};

/**
 * Whose fields a merged report keeps: the browser's own report's. It is what the browser itself
 * asserts (its `status-code`, `disposition` and position as its engine saw them), and what the site
 * would have without the beacon; the beacon's copy then adds only its source. True when a copy
 * from `source` replaces the stored fields.
 *
 * @example
 * replacesStoredFields('report-to'); // true
 * replacesStoredFields('beacon');    // false
 */
export const replacesStoredFields = (source: CspSource) => sideOf(source) == 'browser';

/**
 * How long one client's identical report is taken for its browser repeating itself. WebKitGTK
 * 2.50 reports a blocked `<img>` twice, within half a second, when its preload scanner met it
 * first (a page whose parser waits on a script): a speculative fetch, which Chromium and Firefox
 * do not report. Chromium sends an identical report once per document anyway. A few seconds cover
 * the repeat and hardly ever two page views of one visitor.
 */
export const REPEAT_WINDOW_MS = 3_000;

/**
 * What makes a report a repeat of another (REPEAT_WINDOW_MS): the same site, violation
 * (violationKeyOf's parts), source, policy and disposition, from the same client (its address and
 * user agent, as `client` names them). Undefined for a report that is not a CSP violation or has
 * no source. Compared in memory only, never stored: 16 hex characters of SHA-256. Taken from the
 * parsed report, before newCspReport: a repeat needs nothing else worked out (docs/csp-reports.md, "Repeats").
 *
 * @example
 * repeatKeyOf('site', { ...report, source: 'report-uri' }, '203.0.113.9 Mozilla/5.0 ...');
 */
export const repeatKeyOf = (siteKey: string, report: CspReport, client: string) => {
  const parts = violationParts(report);
  return parts && report.source
    ? hash('sha256', JSON.stringify([siteKey, parts, report.source, report.original_policy ?? '', report.disposition ?? '', client]), 'hex').slice(0, 16)
    : undefined;
};
