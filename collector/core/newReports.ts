import { blockedHostOf } from './blockedHost';
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
 * A CSP report ready to store: with its blocked host (blockedHost.ts).
 *
 * @example
 * store.csp.insert(siteKey, reports.map(newCspReport), context);
 */
export const newCspReport = (report: CspReport): NewCspReport => ({ ...report, blocked_host: blockedHostOf(report.blocked_uri) });
