import * as v from 'valibot';
import { effectiveDirectiveOf } from '../core/csp/effectiveDirective';
import type { CspReport } from '../core/records';
import { reportUrl } from '../core/reportUrl';
import { MAX_CSP_REPORTS, toCsp2Names, withDirectives } from './cspFieldNames';
import { fastCspReports } from './cspReportFastPath';
import { describeIssues } from './describeIssues';
import { bounded, isObject, optionalBounded, optionalCount, optionalNumber, splitExtra, withoutNulls, withReservedFields } from './fields';

/** A URL field: bounded, then as CSP3 strips URLs for reports (core/reportUrl.ts). */
const reportedUrl = (max: number) => v.pipe(bounded(max), v.transform(reportUrl));

const cspFields = {
  'document-uri': reportedUrl(2048),
  referrer: v.optional(reportedUrl(2048)),
  'violated-directive': optionalBounded(256),
  'effective-directive': optionalBounded(256),
  'original-policy': optionalBounded(8192),
  disposition: optionalBounded(32),
  'blocked-uri': v.optional(reportedUrl(2048)),
  'source-file': v.optional(reportedUrl(2048)),
  'line-number': optionalCount(0, 2 ** 31),
  'column-number': optionalCount(0, 2 ** 31),
  'status-code': optionalCount(0, 999),
  'script-sample': optionalBounded(256),
};

const CspBodySchema = v.pipe(
  v.looseObject(cspFields),
  v.check(
    (body) => effectiveDirectiveOf(body['effective-directive'], body['violated-directive']) !== undefined,
    'a CSP report needs a directive name in effective-directive or violated-directive',
  ),
  v.transform((body): CspReport => {
    const { extra, ...known } = splitExtra<{ extra?: Record<string, unknown> } & Record<string, unknown>>(body, cspFields);
    const report: Record<string, unknown> = { report_type: 'csp-violation' };
    for (const [name, value] of Object.entries(known)) report[name.replace(/-/g, '_')] = value;
    const sent = body['effective-directive'];
    return withDirectives(report, effectiveDirectiveOf(sent, body['violated-directive']), sent, extra) as unknown as CspReport;
  }),
);

const ReportingReportSchema = v.looseObject({
  type: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  age: optionalNumber(),
  url: v.optional(reportedUrl(2048)),
  user_agent: optionalBounded(512),
  body: v.record(v.string(), v.unknown(), 'body must be an object'),
});

/** Other Reporting API bodies (deprecation, intervention, network-error...) are kept whole, bounded. */
const MAX_OTHER_BODY_JSON = 8192;

type Parsed = { success: true; output: CspReport } | { success: false; issues: v.BaseIssue<unknown>[] };

const fromReportingReport = (input: unknown): Parsed => {
  // Null means absent in the envelope too (`"age": null`).
  const report = v.safeParse(ReportingReportSchema, isObject(input) ? withoutNulls(input) : input);
  if (!report.success) return report;
  const { type, age, url, body } = report.output;
  if (type == 'csp-violation') {
    // The body as it arrived: valibot's record left out members named like `constructor`.
    const renamed = toCsp2Names((input as { body: Record<string, unknown> }).body);
    const parsed = v.safeParse(CspBodySchema, { 'document-uri': url, ...renamed });
    if (parsed.success) {
      withReservedFields(parsed.output, renamed);
      if (age !== undefined) parsed.output.age = Math.round(age);
      parsed.output.source = 'report-to';
    }
    return parsed;
  }
  const json = JSON.stringify(body);
  return {
    success: true,
    output: {
      report_type: type,
      document_uri: url,
      age: age === undefined ? undefined : Math.round(age),
      body: json.length <= MAX_OTHER_BODY_JSON ? body : { truncated: true, size: json.length },
      source: 'report-to',
    },
  };
};

type CspParseResult = { success: true; output: CspReport[] } | { success: false; message: string };

/**
 * Normalises every shape browsers send to the CSP endpoints (docs/wire-format.md, "CSP reports"):
 * the CSP2 object `{"csp-report": {...}}`, the Reporting API array `[{type, age, url, user_agent, body}]`,
 * and Safari's single `{type, url, body}` object. In every one `null` means absent, numbers may
 * come as strings of digits, and fields beyond the known ones are kept in `extra`.
 * Reporting API reports get `source: 'report-to'`; a CSP2 object's source depends on how it was
 * sent (routes/cspReports.ts).
 *
 * @example
 * parseCspReports([{ type: 'csp-violation', url: 'https://shop.example/', body: { effectiveDirective: 'img-src', blockedURL: 'https://cdn.example/x.gif' } }]);
 */
const parseCspReports = (body: unknown): CspParseResult => {
  const fail = (issues: v.BaseIssue<unknown>[], where = '') => ({ success: false as const, message: where + describeIssues(issues) });
  if (Array.isArray(body)) {
    if (!body.length) return { success: false, message: 'the array is empty' };
    if (body.length > MAX_CSP_REPORTS) return { success: false, message: `an array holds at most ${MAX_CSP_REPORTS} reports` };
    const output: CspReport[] = [];
    for (const [index, item] of body.entries()) {
      const parsed = fromReportingReport(item);
      if (!parsed.success) return fail(parsed.issues, `[${index}] `);
      output.push(parsed.output);
    }
    return { success: true, output };
  }
  if (isObject(body) && Object.hasOwn(body, 'csp-report')) {
    const inner = body['csp-report'];
    const renamed = isObject(inner) ? toCsp2Names(inner) : inner;
    const parsed = v.safeParse(CspBodySchema, renamed);
    return parsed.success ? { success: true, output: [withReservedFields(parsed.output, renamed)] } : fail(parsed.issues, 'csp-report: ');
  }
  if (isObject(body) && Object.hasOwn(body, 'type')) {
    const parsed = fromReportingReport(body);
    return parsed.success ? { success: true, output: [parsed.output] } : fail(parsed.issues);
  }
  return {
    success: false,
    message: 'expected {"csp-report": {...}}, a Reporting API array [{type, url, body}], or one {type, url, body} report',
  };
};

const judged = ({ dataset, addIssue, NEVER }: v.RawTransformContext<unknown>) => {
  const parsed = parseCspReports(dataset.value);
  if (parsed.success) return parsed.output;
  addIssue({ message: parsed.message });
  return NEVER;
};

/** The body of the CSP endpoints judged by valibot alone (see CspReportsSchema): the reference its fast path is checked against. */
export const CspReportsValibotSchema = v.pipe(v.unknown(), v.rawTransform(judged));

/**
 * The body of the CSP endpoints as a schema (see parseCspReports): the reports, normalised, or one
 * issue naming what is wrong. The common shapes take one pass (cspReportFastPath.ts), the rest
 * valibot. Documented by hand in the route (`jsonSchema`): a union of shapes chosen by their
 * members is not expressible from this schema.
 *
 * @example
 * v.parse(CspReportsSchema, { 'csp-report': { 'document-uri': 'https://shop.example/', 'violated-directive': 'img-src' } })
 */
export const CspReportsSchema = v.pipe(
  v.unknown(),
  v.rawTransform((context: v.RawTransformContext<unknown>) => fastCspReports(context.dataset.value) ?? judged(context)),
);
