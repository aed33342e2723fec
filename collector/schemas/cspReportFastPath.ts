import { effectiveDirectiveOf } from '../core/csp/effectiveDirective';
import type { CspReport } from '../core/records';
import { reportUrl } from '../core/reportUrl';
import { MAX_CSP_REPORTS, toCsp2Names, withDirectives } from './cspFieldNames';
import { boundedExtra, everyOrNone, isObject } from './fields';

/**
 * cspReport.ts's `cspFields` in its order, with its bounds: the CSP2 name, the stored name, what it
 * holds (a URL, cut then stripped as reportUrl strips it; text, cut; a whole number up to `max`)
 * and the bound. Numbers sent as strings of digits are left to valibot.
 */
const FIELDS = [
  ['document-uri', 'document_uri', 'url', 2048],
  ['referrer', 'referrer', 'url', 2048],
  ['violated-directive', 'violated_directive', 'text', 256],
  ['effective-directive', 'effective_directive', 'text', 256],
  ['original-policy', 'original_policy', 'text', 8192],
  ['disposition', 'disposition', 'text', 32],
  ['blocked-uri', 'blocked_uri', 'url', 2048],
  ['source-file', 'source_file', 'url', 2048],
  ['line-number', 'line_number', 'count', 2 ** 31],
  ['column-number', 'column_number', 'count', 2 ** 31],
  ['status-code', 'status_code', 'count', 999],
  ['script-sample', 'script_sample', 'text', 256],
] as const;
const KNOWN: ReadonlySet<string> = new Set(FIELDS.map(([name]) => name));

/** Keys valibot skips and fields.ts puts back (withReservedFields): their reports take valibot's path. */
const isReservedKey = (name: string) => name == '__proto__' || name == 'constructor' || name == 'prototype';

/**
 * A body on CSP2 names (toCsp2Names) as CspBodySchema makes it, or undefined to leave it to valibot.
 * `documentUri` stands in for an absent `document-uri` (the Reporting API report's `url`).
 */
const fastCspBody = (renamed: Record<string, unknown>, documentUri?: string): CspReport | undefined => {
  const report: Record<string, unknown> = { report_type: 'csp-violation' };
  for (const [name, column, kind, max] of FIELDS) {
    // `renamed` has no prototype: `in` asks for its own members.
    const present = name in renamed;
    if (!present && (name != 'document-uri' || documentUri === undefined)) {
      if (name == 'document-uri') return undefined;
      continue;
    }
    const value = present ? renamed[name] : documentUri;
    if (kind == 'count') {
      if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > max) return undefined;
      report[column] = value;
      continue;
    }
    if (typeof value != 'string') return undefined;
    const cut = value.length > max ? value.slice(0, max) : value;
    report[column] = kind == 'url' ? reportUrl(cut) : cut;
  }
  const sent = report.effective_directive as string | undefined;
  const effective = effectiveDirectiveOf(sent, report.violated_directive as string | undefined);
  if (effective === undefined) return undefined;
  const others: Array<[string, unknown]> = [];
  for (const name in renamed) {
    if (isReservedKey(name)) return undefined;
    if (!KNOWN.has(name)) others.push([name, renamed[name]]);
  }
  // As CspBodySchema's transform ends.
  return withDirectives(report, effective, sent, boundedExtra(others)) as unknown as CspReport;
};

/** A Reporting API `csp-violation` report, as cspReport.ts's fromReportingReport makes it; undefined for any other. */
const fastReportingReport = (input: unknown): CspReport | undefined => {
  if (!isObject(input)) return undefined;
  const { type, age, url, user_agent: userAgent, body } = input;
  if (type !== 'csp-violation' || !isObject(body)) return undefined;
  // Null means absent; numbers as strings are valibot's.
  if (age != null && (typeof age != 'number' || !Number.isFinite(age))) return undefined;
  if (url != null && typeof url != 'string') return undefined;
  if (userAgent != null && typeof userAgent != 'string') return undefined;
  const documentUri = url == null ? undefined : reportUrl(url.length > 2048 ? url.slice(0, 2048) : url);
  const report = fastCspBody(toCsp2Names(body), documentUri);
  if (!report) return undefined;
  if (age != null) report.age = Math.round(age);
  report.source = 'report-to';
  return report;
};

/**
 * The CSP endpoints' body in its common shapes (docs/performance.md, "The HTTP thread":
 * valibot was the largest share of the CSP path), in one pass: a Reporting API array of
 * `csp-violation` reports, Safari's single one, or a CSP2 `{"csp-report": {...}}`, with every field
 * of the type CspReportsSchema expects. Undefined for anything else (another report type, a number
 * sent as a string, a field named `constructor`, a missing directive...): valibot then judges it,
 * and names what is wrong. cspReportFastPath.test.ts checks both agree on arbitrary input.
 *
 * @example
 * fastCspReports([{ type: 'csp-violation', url: 'https://shop.example/', body: { effectiveDirective: 'img-src' } }]); // [ {...} ]
 * fastCspReports([{ type: 'deprecation', body: {} }]); // undefined: valibot answers
 */
export const fastCspReports = (body: unknown): CspReport[] | undefined => {
  if (Array.isArray(body)) return everyOrNone(body, MAX_CSP_REPORTS, fastReportingReport);
  if (!isObject(body)) return undefined;
  if (Object.hasOwn(body, 'csp-report')) {
    const inner = body['csp-report'];
    const report = isObject(inner) ? fastCspBody(toCsp2Names(inner)) : undefined;
    return report && [report];
  }
  const report = Object.hasOwn(body, 'type') ? fastReportingReport(body) : undefined;
  return report && [report];
};
