import { blockedHostOf } from './blockedHost';
import { violationKeyOf } from './cspCopies';
import { engineNeutralMessage } from './enginePrefix';
import { fingerprintOf } from './fingerprint';
import type { CspReport, ErrorReport, NewCspReport, NewErrorReport } from './records';

/**
 * An error report ready to store: its message without an engine's prefix (enginePrefix.ts), then
 * its fingerprint of that message (fingerprint.ts), so one throw is one group in every browser.
 * Both schema paths (schemas/errorReport.ts and its fast path) reach the store through here.
 * `original`: where the stack's first in-app frame is in the source, when the release's map says
 * so (docs/grouping.md, "Across releases"). Anything else in its place (an array's index, when a
 * JavaScript caller passes this function to `map` as it is) is no position and ignored.
 *
 * @example
 * store.errors.insert(siteKey, reports.map((report) => newErrorReport(report)), context);
 */
export const newErrorReport = (report: ErrorReport, original?: { source: string; line: number } | null): NewErrorReport => {
  // One copy per report on the ingest path: the message is set on the copy that carries the fingerprint.
  const stored = { ...report, error_message: engineNeutralMessage(report), fingerprint: '' };
  stored.fingerprint = fingerprintOf(stored, typeof original == 'object' ? original : null);
  return stored;
};

/**
 * A CSP report ready to store: with its blocked host (blockedHost.ts) and, for a violation, the
 * key its copies share (cspCopies.ts).
 *
 * @example
 * store.csp.insert(siteKey, reports.map(newCspReport), context);
 */
export const newCspReport = (report: CspReport): NewCspReport => {
  const violation_key = violationKeyOf(report);
  return { ...report, blocked_host: blockedHostOf(report.blocked_uri), ...(violation_key ? { violation_key } : {}) };
};
