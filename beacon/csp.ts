import type { Capture } from './init';
import { cleanUrl } from './lib/cleanUrl';
import { listen } from './lib/listen';
import { monitor } from './lib/monitor';

/** Browser extensions inject into every page; their violations say nothing about the site. */
const EXTENSION = /^(?:[a-z-]*-extension|webkit-masked-url):/i;

/**
 * The event's fields (https://w3c.github.io/webappsec-csp/#violation-events), in the order of the
 * CSP2 report; each CSP2 name is its kebab-case form (`blockedURI` -> `blocked-uri`), except
 * `sample` -> `script-sample`.
 */
const FIELDS =
  'documentURI referrer violatedDirective effectiveDirective originalPolicy disposition blockedURI sourceFile lineNumber columnNumber statusCode sample';

const toCsp2Name = (field: string) =>
  field == 'sample' ? 'script-sample' : field.replace('URI', 'Uri').replace(/[A-Z]/g, (letter) => '-' + letter.toLowerCase());

/**
 * Captures Content-Security-Policy violations (`securitypolicyviolation`) and sends them in the
 * CSP2 shape, `{"csp-report": {...}}`, with every field the event carries (URLs without
 * credentials or fragment).
 *
 * A violation whose blocked URI is the collector is never reported: the report would be blocked
 * in turn (a feedback loop). When the policy enforces that block, the beacon stops sending.
 *
 * @example
 * init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [errors(), csp()] });
 */
export const csp = (): Capture => (context) => {
  const collectorOrigins = Object.values(context._endpoints).map((url) => new URL(url, location.href).origin + '/');

  const onViolation = (event: SecurityPolicyViolationEvent) => {
    const blocked = event.blockedURI;
    if (collectorOrigins.some((origin) => (blocked + '/').startsWith(origin))) {
      if (event.disposition == 'enforce') context._block();
      return;
    }
    if (EXTENSION.test(blocked) || EXTENSION.test(event.sourceFile)) return;
    const report: Record<string, unknown> = {};
    for (const field of FIELDS.split(' ')) {
      const value = event[field as keyof SecurityPolicyViolationEvent];
      report[toCsp2Name(field)] = typeof value == 'string' ? cleanUrl(value) : value;
    }
    context._report('csp', { 'csp-report': report });
  };

  return listen('securitypolicyviolation', monitor(onViolation));
};
