import { blockedHostOf } from './blockedHost';
import { violationKeyOf } from './cspCopies';
import { fingerprintOf } from './fingerprint';
import type { CspReport, ErrorReport, NewCspReport, NewErrorReport } from './records';

/**
 * An error report ready to store: with its fingerprint (fingerprint.ts).
 *
 * @example
 * store.errors.insert(siteKey, reports.map(newErrorReport), context);
 */
export const newErrorReport = (report: ErrorReport): NewErrorReport => ({ ...report, fingerprint: fingerprintOf(report) });

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
