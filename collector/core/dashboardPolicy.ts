import { DASHBOARD_SITE_KEY } from './records';
import type { SetupUrls } from './setupUrls';

/**
 * The Content-Security-Policy of every dashboard response (docs/dashboard.md, "Safety"): scripts, styles
 * and fetches from this collector only (and its collection host, which the setup page's
 * connectivity test calls), no inline script or style element, no plugin, no framing, no other
 * base or form target; violations are reported to this collector, under DASHBOARD_SITE_KEY.
 * Styles set through the DOM (Preact's style props, uPlot's sizes) are CSSOM, which `style-src`
 * does not govern; the shell has no style attribute. The shell carries no beacon snippet (the setup
 * page shows the snippet as text), so `script-src` lists no early-capture stub hash
 * (docs/early-capture.md): an inline script here stays blocked.
 *
 * @example
 * dashboardPolicy(setupUrls(links)).header // "default-src 'none'; script-src 'self'; …"
 */
export const dashboardPolicy = (urls: Pick<SetupUrls, 'app_url' | 'api_base'>) => {
  const reportUrl = `${urls.app_url}/api/csp-reports/${DASHBOARD_SITE_KEY}`;
  const ingest = new URL(urls.api_base).origin;
  const connect = ingest == new URL(urls.app_url).origin ? "'self'" : `'self' ${ingest}`;
  return {
    header: [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self'",
      `connect-src ${connect}`,
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      `report-uri ${reportUrl}`,
      // Chromium delivers Reporting API reports to HTTPS endpoints only, and ignores report-uri
      // when report-to is present (CSP3 section 5.5): over plain HTTP, report-uri alone.
      ...(urls.app_url.startsWith('https:') ? ['report-to sitebeacon-dashboard'] : []),
    ].join('; '),
    reportingEndpoints: `sitebeacon-dashboard="${reportUrl}"`,
  };
};
