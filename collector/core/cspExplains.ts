import { COPY_WINDOW_MS } from './cspCopies';

/** A URL as compared: parsed (a default port dropped, WebKit's `report-to` writes `:443`), without its fragment; else as written. */
export const comparable = (url: string | undefined) => {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
};

/** What a resource error and a CSP violation are compared by (their records' fields, times in ms). */
export interface FailedLoad {
  source_url?: string | undefined;
  page_url?: string | undefined;
  received_at: number;
}
export interface Violation {
  report_type: string;
  effective_directive?: string | undefined;
  blocked_uri?: string | undefined;
  document_uri?: string | undefined;
  /** `report` for a report-only policy's violation; WebKit's `report-uri` reports do not say. */
  disposition?: string | null | undefined;
  received_at: number;
}

/**
 * The CSP violation that explains a failed load, if any (docs/issues.md, "A resource a CSP
 * blocked"): a browser that blocks an `<img>` or `<script>` by its policy reports a violation and
 * fires the element's error event, which the beacon reports as a `resource_error`: one event seen
 * twice. They match when the violation blocked the error's URL on the error's page (URLs compared
 * without fragment and default port), and arrived within COPY_WINDOW_MS of it either way (the
 * window of one violation's copies: Reporting API reports are batched). A report-only policy's
 * violation blocked nothing, so it explains no failed load; one that does not say (WebKit's
 * `report-uri` reports) may. The nearest in time wins.
 *
 * @example
 * explainingViolation({ source_url: 'https://ads.example/a.js', page_url: 'https://shop.example/', received_at: t },
 *   [{ report_type: 'csp-violation', effective_directive: 'script-src-elem', blocked_uri: 'https://ads.example/a.js', document_uri: 'https://shop.example/', received_at: t + 30_000 }])
 * // that violation
 */
export const explainingViolation = <V extends Violation>(error: FailedLoad, violations: readonly V[]): V | undefined => {
  const url = comparable(error.source_url);
  const page = comparable(error.page_url);
  if (!url || !page) return undefined;
  let best: V | undefined;
  for (const violation of violations) {
    const apart = Math.abs(violation.received_at - error.received_at);
    if (violation.report_type != 'csp-violation' || !violation.effective_directive || violation.disposition == 'report' || apart > COPY_WINDOW_MS) continue;
    if (comparable(violation.blocked_uri) != url || comparable(violation.document_uri) != page) continue;
    if (!best || apart < Math.abs(best.received_at - error.received_at)) best = violation;
  }
  return best;
};
