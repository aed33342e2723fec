import type { CountedLoad } from '../core/countedOnce';
import type { Violation } from '../core/cspExplains';

/** A failed load's row as both stores read it (ErrorReportStore `blockedLoads`). */
export interface LoadRow {
  received_at: number | string;
  source_url: string | null;
  page_url: string | null;
  count: number | string;
  bot: number | string;
}

/** A violation's row as both stores read it. */
export interface ViolationRow {
  received_at: number | string;
  report_type: string;
  effective_directive: string | null;
  blocked_uri: string | null;
  document_uri: string | null;
  disposition: string | null;
}

/** A row as core/countedOnce.ts takes it (PostgreSQL's int8 arrives as text: numbers here). */
export const loadOf = (row: LoadRow): CountedLoad => ({
  received_at: Number(row.received_at),
  source_url: row.source_url ?? undefined,
  page_url: row.page_url ?? undefined,
  count: Number(row.count),
  bot: Number(row.bot) == 1,
});

/** A violation's row as core/cspExplains.ts takes it. */
export const violationOf = (row: ViolationRow): Violation => ({
  received_at: Number(row.received_at),
  report_type: row.report_type,
  effective_directive: row.effective_directive ?? undefined,
  blocked_uri: row.blocked_uri ?? undefined,
  document_uri: row.document_uri ?? undefined,
  disposition: row.disposition,
});

/**
 * Which way a store finds the failed loads a violation may explain (ErrorReportStore
 * `blockedLoads`): probing each resource error of the range for a violation near it costs one
 * look-up per report; looking up each ten-minute window holding a CSP report, and those either
 * side, in each resource issue's reports costs three look-ups per window and issue. The cheaper
 * wins: by windows when violations come in bursts, by probe when they are spread out. Both find
 * every load a violation is within ten minutes of (and some more, which core/countedOnce.ts
 * leaves): the counts are the same either way.
 *
 * @example
 * byWindows(6, 20, 100_000) // true: 360 look-ups rather than 100,000
 */
export const byWindows = (windows: number, fingerprints: number, reports: number) => windows * 3 * fingerprints < reports;

/** How many windows are worth counting: past this many, probing costs less whatever the count. */
export const windowCap = (reports: number, fingerprints: number) => Math.ceil(reports / (3 * Math.max(1, fingerprints))) + 1;
