import { withoutNulls } from './fields';

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
const ALIASED: ReadonlySet<string> = new Set(Object.values(ALIASES).flat());
/** Each CSP2 name with the names it is looked up by, in order: computed once, not per report. */
const LOOKUPS = Object.entries(ALIASES).map(([name, aliases]) => [name, [name, ...aliases]] as const);

/**
 * Copies a CSP report body onto the CSP2 names, whichever names it came with (camelCase Reporting
 * API bodies, CSP2, older WebKit's); a CSP2 name wins over its aliases. `null` members are left out
 * first: null means absent (issue 12), so `"documentURL": null` lets the report's `url` stand in.
 * The copy has no prototype: a `__proto__` member stays a member, and the schema never reads
 * fields from it.
 *
 * @example
 * toCsp2Names({ blockedURL: 'eval', referrer: null }); // { 'blocked-uri': 'eval' }
 */
export const toCsp2Names = (sent: Record<string, unknown>) => {
  const body = withoutNulls(sent);
  const renamed = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(body)) if (!ALIASED.has(name)) renamed[name] = value;
  for (const [name, candidates] of LOOKUPS) {
    const source = candidates.find((candidate) => Object.hasOwn(body, candidate));
    if (source) renamed[name] = body[source];
  }
  return renamed;
};
