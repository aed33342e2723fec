import type { Capture } from './init';

/** The CSP2 name of an event field: its kebab-case form (`blockedURI` -> `blocked-uri`), except `sample`. */
const toCsp2Name = (field: string) => ((field == 'sample' ? 'script-' : '') + field.replace(/[A-Z]+/g, '-$&')).toLowerCase();

/**
 * Captures Content-Security-Policy violations (`securitypolicyviolation`) and sends them in the
 * CSP2 shape, `{"csp-report": {...}}`, with the fields the browser filled in: an empty string or a
 * zero is how the event says "unknown" (no `source-file`, line 0, an empty `script-sample` or
 * `referrer`, WebKit's `status-code` 0 over HTTPS), so such a field is left out, not sent. URLs
 * lose their credentials and fragment (both when the report is sent: lib/toWireJson.ts).
 * Violations of browser extensions are sent like any other: the collector's noise rule drops them
 * (docs/csp-reports.md), one rule in one place.
 *
 * A violation whose blocked URI is the collector is never reported: the report would be blocked
 * in turn (a feedback loop). When the policy enforces that block in `connect-src`, the beacon
 * stops sending.
 *
 * @example
 * init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [errors(), csp()] });
 */
export const csp = (): Capture => (context) => {
  const onViolation = (event: SecurityPolicyViolationEvent) => {
    const blocked = event.blockedURI + '/';
    // The collector's origins are worked out here, not at start: violations are rare.
    if (Object.values(context._endpoints).some((url) => blocked.startsWith(new URL(url, location.href).origin + '/'))) {
      // Only connect-src governs fetch and sendBeacon: a blocked image or script from the
      // collector's host (a path-specific script-src) leaves the reports free to go.
      if (event.disposition == 'enforce' && event.effectiveDirective == 'connect-src') context._blocked = true;
      return;
    }
    const report: Record<string, unknown> = {};
    // The event's fields (https://w3c.github.io/webappsec-csp/#violation-events) are the
    // prototype's attributes, enumerable as WebIDL makes them: every one this browser has.
    for (const field of Object.keys(Object.getPrototypeOf(event))) {
      report[toCsp2Name(field)] = event[field as keyof SecurityPolicyViolationEvent];
    }
    context._report('csp', { 'csp-report': report });
  };

  context._listen('securitypolicyviolation', onViolation);
};
