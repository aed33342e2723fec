import { checkAllowedOrigin } from './checkAllowedOrigin';
import type { CheckContext } from '../checkContext';
import { CheckFailure, checkFailure, EXIT_CODES } from '../checkFailure';
import type { RunStep } from '../report/createReporter';
import { fetchPage } from './fetchPage';
import type { Route } from '../connection/openConnection';
import { cspProblems, pagePolicies } from './pagePolicies';
import { printable } from '../report/printable';
import { readHtml, type BeaconTag } from './readHtml';

/** The collection API base a beacon tag names (docs/beacon.md, "Endpoint resolution"), if it names one. */
const tagApiBase = (tag: BeaconTag, page: URL) => {
  try {
    if (tag.apiBase) return new URL(tag.apiBase, page).href.replace(/\/+$/, '');
    if (tag.ingestOrigin) return `${new URL(tag.ingestOrigin, page).origin}/api`;
  } catch {
    return undefined;
  }
  return undefined;
};

/**
 * The `page` step (`--page`, exit 9): fetches the page, reads its enforced CSPs (header and
 * `<meta>` in `<head>`) and checks with the CSP module that `connect-src` (or `default-src`) allows
 * the collector's endpoints and `script-src` the beacon's script (the page's own sitebeacon tag,
 * else `/beacon.js` on the collector), printing the exact sources to add. Then the `origin` step:
 * the site (`--site`, else the tag's `data-site-key`) must allow the page's origin. Spec section 1:
 * "a successful server-side check does not prove a visitor's browser can send reports".
 *
 * @example
 * await checkPage(context, route, new URL('https://shop.example/'), 'a1b2c3', reporter.step);
 */
export const checkPage = async (context: CheckContext, route: Route, pageUrl: URL, siteKey: string | undefined, step: RunStep) => {
  const { apiBase } = context.target;
  let failure: CheckFailure | undefined;
  let fetched: { url: URL; tagSiteKey: string | undefined } | undefined;
  await step('page', async (say) => {
    const { url, answer } = await fetchPage(context, pageUrl);
    const html = readHtml(answer.body);
    const tag = html.beaconTags[0];
    fetched = { url, tagSiteKey: tag?.siteKey };
    const key = siteKey ?? tag?.siteKey ?? 'SITE_KEY';
    let scriptUrl = new URL('/beacon.js', apiBase);
    try {
      if (tag?.src) scriptUrl = new URL(tag.src, url);
    } catch {
      // An unparsable src loads nothing; the collector's script is what the page should load.
    }
    const policies = pagePolicies(answer, html);
    const problems = cspProblems(policies, {
      pageUrl: url.href,
      endpoints: ['error-reports', 'csp-reports', 'performance-sessions'].map((path) => `${apiBase}/${path}/${encodeURIComponent(key)}`),
      scriptUrl: scriptUrl.href,
      scriptIntegrity: tag?.integrity,
    });
    const sends = tag && tagApiBase(tag, url);
    const notes = [
      tag ? `its sitebeacon tag loads ${printable(scriptUrl.href, 200)}` : `no sitebeacon tag on the page (npm build?); checked ${scriptUrl.href}`,
      ...(sends && sends != apiBase ? [`the tag sends to ${printable(sends, 200)}, not to ${apiBase}`] : []),
    ];
    if (problems.length) {
      throw checkFailure(EXIT_CODES.page, `the CSP of ${printable(url.href, 200)} stops visitors' browsers from reporting: ${problems.join('; ')}`);
    }
    const verdict = policies.length
      ? `its ${policies.length} enforced ${policies.length == 1 ? 'policy allows' : 'policies allow'} the collector in connect-src and the script in script-src`
      : 'it has no enforced CSP, so nothing blocks the beacon';
    say(`${printable(url.href, 200)}: ${verdict}; ${notes.join('; ')}`);
  }).catch((error: unknown) => {
    if (!(error instanceof CheckFailure)) throw error;
    failure = error;
  });
  // The allowed origins are checked even when the CSP failed, so that one run lists every fix.
  if (fetched) {
    const origin = fetched.url.origin;
    const key = siteKey ?? fetched.tagSiteKey;
    await step('origin', async (say) => {
      if (!key) return say(`skipped: give --site SITE_KEY to check that the site allows ${origin}`);
      say(await checkAllowedOrigin(context, route, key, origin));
    }).catch((error: unknown) => {
      if (!(error instanceof CheckFailure)) throw error;
      failure ??= error;
    });
  }
  if (failure) throw failure;
};
