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
});
