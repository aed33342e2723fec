import * as v from 'valibot';
import type { CspReport } from '../core/records';
import { describeIssues } from './describeIssues';
import { bounded, optionalBounded, optionalFinite, optionalInteger, splitExtra, withReservedFields } from './fields';

/**
 * CSP2 field names (`{"csp-report": {...}}`, spec section 2) and the names the Reporting API
 * (camelCase, https://w3c.github.io/webappsec-csp/#reporting) and older WebKit use for them.
 */
const ALIASES: Record<string, string[]> = {
  'document-uri': ['documentURL', 'documentURI'],
  referrer: [],
  'violated-directive': ['violatedDirective'],
  'effective-directive': ['effectiveDirective'],
  'original-policy': ['originalPolicy'],
  disposition: [],
  'blocked-uri': ['blockedURL', 'blockedURI'],
  'source-file': ['sourceFile'],
  'line-number': ['lineNumber'],
  'column-number': ['columnNumber'],
  'status-code': ['statusCode'],
  'script-sample': ['sample', 'scriptSample'],
};

const cspFields = {
  'document-uri': bounded(2048),
  referrer: optionalBounded(2048),
  'violated-directive': optionalBounded(256),
  'effective-directive': optionalBounded(256),
  'original-policy': optionalBounded(8192),
  disposition: optionalBounded(32),
  'blocked-uri': optionalBounded(2048),
  'source-file': optionalBounded(2048),
  'line-number': optionalInteger(0, 2 ** 31),
  'column-number': optionalInteger(0, 2 ** 31),
  'status-code': optionalInteger(0, 999),
  'script-sample': optionalBounded(256),
};

const CspBodySchema = v.pipe(
  v.looseObject(cspFields),
  v.check(
    (body) => !!(body['violated-directive'] || body['effective-directive']),
    'a CSP report needs violated-directive or effective-directive',
  ),
  v.transform((body): CspReport => {
    const { extra, ...known } = splitExtra<Record<string, unknown>>(body, cspFields);
    const report: Record<string, unknown> = { report_type: 'csp-violation' };
    for (const [name, value] of Object.entries(known)) report[name.replace(/-/g, '_')] = value;
    // The Reporting API has only the effective directive; CSP2 readers expect violated-directive.
    report.violated_directive ??= report.effective_directive;
    if (extra) report.extra = extra;
    return report as unknown as CspReport;
  }),
);

/**
 * Copies a camelCase (Reporting API) CSP body onto the CSP2 names; CSP2 names win. The copy has
 * no prototype: a `__proto__` member stays a member, and the schema never reads fields from it.
 */
const toCsp2Names = (body: Record<string, unknown>) => {
  const renamed = Object.create(null) as Record<string, unknown>;
  const aliased = new Set(Object.values(ALIASES).flat());
  for (const [name, value] of Object.entries(body)) if (!aliased.has(name)) renamed[name] = value;
  for (const [name, aliases] of Object.entries(ALIASES)) {
    const source = [name, ...aliases].find((candidate) => Object.hasOwn(body, candidate));
    if (source) renamed[name] = body[source];
  }
  return renamed;
};

const ReportingReportSchema = v.looseObject({
  type: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  age: optionalFinite(),
  url: optionalBounded(2048),
  user_agent: optionalBounded(512),
  body: v.record(v.string(), v.unknown(), 'body must be an object'),
});

/** Other Reporting API bodies (deprecation, intervention, network-error...) are kept whole, bounded. */
const MAX_OTHER_BODY_JSON = 8192;

type Parsed = { success: true; output: CspReport } | { success: false; issues: v.BaseIssue<unknown>[] };

const fromReportingReport = (input: unknown): Parsed => {
  const report = v.safeParse(ReportingReportSchema, input);
  if (!report.success) return report;
  const { type, age, url, body } = report.output;
  if (type == 'csp-violation') {
    // The body as it arrived: valibot's record left out members named like `constructor`.
    const renamed = toCsp2Names((input as { body: Record<string, unknown> }).body);
    const parsed = v.safeParse(CspBodySchema, { 'document-uri': url, ...renamed });
    if (parsed.success) withReservedFields(parsed.output, renamed);
    if (parsed.success && age !== undefined) parsed.output.age = Math.round(age);
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
    },
  };
};

/** Reporting API batches are small; a larger array is not a browser's. */
const MAX_REPORTS = 100;

type CspParseResult = { success: true; output: CspReport[] } | { success: false; message: string };

/**
 * Normalises every shape browsers send to the CSP endpoints (../shared/design.md, "Formats accepted"):
 * the CSP2 object `{"csp-report": {...}}`, the Reporting API array `[{type, age, url, user_agent, body}]`,
 * and Safari's single `{type, url, body}` object.
 *
 * @example
 * parseCspReports([{ type: 'csp-violation', url: 'https://shop.example/', body: { effectiveDirective: 'img-src', blockedURL: 'https://cdn.example/x.gif' } }]);
 */
const parseCspReports = (body: unknown): CspParseResult => {
  const fail = (issues: v.BaseIssue<unknown>[], where = '') => ({ success: false as const, message: where + describeIssues(issues) });
  if (Array.isArray(body)) {
    if (!body.length) return { success: false, message: 'the array is empty' };
    if (body.length > MAX_REPORTS) return { success: false, message: `an array holds at most ${MAX_REPORTS} reports` };
    const output: CspReport[] = [];
    for (const [index, item] of body.entries()) {
      const parsed = fromReportingReport(item);
      if (!parsed.success) return fail(parsed.issues, `[${index}] `);
      output.push(parsed.output);
    }
    return { success: true, output };
  }
  if (body && typeof body == 'object' && Object.hasOwn(body, 'csp-report')) {
    const inner = (body as Record<string, unknown>)['csp-report'];
    const renamed = inner && typeof inner == 'object' ? toCsp2Names(inner as Record<string, unknown>) : inner;
    const parsed = v.safeParse(CspBodySchema, renamed);
    return parsed.success ? { success: true, output: [withReservedFields(parsed.output, renamed)] } : fail(parsed.issues, 'csp-report: ');
  }
  if (body && typeof body == 'object' && Object.hasOwn(body, 'type')) {
    const parsed = fromReportingReport(body);
    return parsed.success ? { success: true, output: [parsed.output] } : fail(parsed.issues);
  }
  return {
    success: false,
    message: 'expected {"csp-report": {...}}, a Reporting API array [{type, url, body}], or one {type, url, body} report',
  };
};

/**
 * The body of the CSP endpoints as a schema (see parseCspReports): the reports, normalised, or one
 * issue naming what is wrong. Documented by hand in the route (`jsonSchema`): a union of shapes
 * chosen by their members is not expressible from this schema.
 *
 * @example
 * v.parse(CspReportsSchema, { 'csp-report': { 'document-uri': 'https://shop.example/', 'violated-directive': 'img-src' } })
 */
export const CspReportsSchema = v.pipe(
  v.unknown(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const parsed = parseCspReports(dataset.value);
    if (parsed.success) return parsed.output;
    addIssue({ message: parsed.message });
    return NEVER;
  }),
);
