import { MAX_EXTRA_JSON } from './fields';

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
/** Reporting API batches are small; a larger array is not a browser's (the CSP endpoints' bound). */
export const MAX_CSP_REPORTS = 100;

/** Each alias: the CSP2 name it stands for, and its rank among that name's candidates (the CSP2 name itself is 0). */
const ALIAS_OF: ReadonlyMap<string, readonly [name: string, rank: number]> = new Map(
  Object.entries(ALIASES).flatMap(([name, aliases]) => aliases.map((alias, index) => [alias, [name, index + 1]] as const)),
);
const CSP2_NAMES = Object.keys(ALIASES);

/**
 * Copies a CSP report body onto the CSP2 names, whichever names it came with (camelCase Reporting
 * API bodies, CSP2, older WebKit's); a CSP2 name wins over its aliases, and an alias over the ones
 * after it in ALIASES. `null` members are left out: null means absent (docs/wire-format.md, "CSP reports"), so
 * `"documentURL": null` lets the report's `url` stand in. The copy has no prototype: a `__proto__`
 * member stays a member, and the schema never reads fields from it. One pass over the body (this runs
 * for every CSP report: docs/performance.md): names first in the order sent, then the CSP2 names taken
 * from aliases in ALIASES' order.
 *
 * @example
 * toCsp2Names({ blockedURL: 'eval', referrer: null }); // { 'blocked-uri': 'eval' }
 */
export const toCsp2Names = (sent: Record<string, unknown>) => {
  const renamed = Object.create(null) as Record<string, unknown>;
  let chosen: Record<string, readonly [rank: number, value: unknown]> | undefined;
  for (const name in sent) {
    if (!Object.hasOwn(sent, name)) continue;
    const value = sent[name];
    if (value === null) continue;
    const alias = ALIAS_OF.get(name);
    // No prototype, so no `__proto__` setter: an assignment makes every name an own member.
    if (alias === undefined) renamed[name] = value;
    else {
      chosen ??= Object.create(null) as Record<string, readonly [number, unknown]>;
      const [csp2, rank] = alias;
      const before = chosen[csp2];
      if (!before || rank < before[0]) chosen[csp2] = [rank, value];
    }
  }
  if (chosen) for (const name of CSP2_NAMES) if (name in chosen && !(name in renamed)) renamed[name] = chosen[name]![1];
  return renamed;
};

/**
 * The last step of every CSP report's shaping (cspReport.ts's CspBodySchema and its fast path):
 * `effective_directive` becomes the bare, known directive `effective` (docs/grouping.md,
 * "CSP violations"; core/csp/effectiveDirective.ts), the one `sent`, when it differs, kept as it came in `extra`;
 * `violated_directive` stays as sent or else is the effective one (the Reporting API has only the
 * effective directive; CSP2 readers expect violated-directive); then `extra`, within MAX_EXTRA_JSON.
 *
 * @example
 * withDirectives({ report_type: 'csp-violation' }, 'img-src', "img-src 'self'", undefined);
 * // { ..., effective_directive: 'img-src', violated_directive: "img-src 'self'", extra: { 'effective-directive': "img-src 'self'" } }
 */
export const withDirectives = (
  report: Record<string, unknown>,
  effective: string | undefined,
  sent: string | undefined,
  extra: Record<string, unknown> | undefined,
) => {
  report.effective_directive = effective;
  report.violated_directive ??= sent ?? effective;
  const kept = sent !== undefined && sent !== effective ? { ...extra, 'effective-directive': sent } : extra;
  if (kept && JSON.stringify(kept).length <= MAX_EXTRA_JSON) report.extra = kept;
  else if (extra) report.extra = extra;
  return report;
};
