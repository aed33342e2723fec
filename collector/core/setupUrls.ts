import { createHash } from 'node:crypto';
import { EARLY_STUB } from '../../beacon/lib/earlyStub';

/**
 * Where this collector is reached (spec section 1): `{app_url}`, the main / legacy address that
 * also serves the dashboard and agent updates, and `{ingest_url}`, the dedicated collection host
 * when one is set. Functions, because the address may be known only once the server listens.
 */
export interface Links {
  appUrl: () => string;
  ingestUrl?: () => string | undefined;
}

/** The generated setup URLs of an installation (spec section 1: clients use these, never rewritten by hand). */
export interface SetupUrls {
  app_url: string;
  /** The dedicated collection host, or the app host. */
  ingest_url: string;
  /** `{base_url}`: the API base collection follows. */
  api_base: string;
  /** The legacy API base on the app host: the WordPress plugin's fallback. */
  legacy_api_base: string;
  beacon_url: string;
}

const trim = (url: string) => url.replace(/\/+$/, '');

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The setup URLs for `links`.
 *
 * @example
 * setupUrls({ appUrl: () => 'https://app.example', ingestUrl: () => 'https://in.example' }).api_base
 * // 'https://in.example/api'
 */
export const setupUrls = (links: Links): SetupUrls => {
  const app = trim(links.appUrl());
  const ingest = trim(links.ingestUrl?.() || app);
  return {
    app_url: app,
    ingest_url: ingest,
    api_base: `${ingest}/api`,
    legacy_api_base: `${app}/api`,
    beacon_url: `${ingest}/beacon.js`,
  };
};

/**
 * The plain async script tag (README, "Adding the beacon to a site"): the beacon captures from when
 * it has run.
 *
 * @example
 * scriptTag(setupUrls(links), '3f2a9c1b7e0d4c5a6b7c8d9e')
 * // '<script src="https://in.example/beacon.js" data-site-key="3f2a…" data-ingest-origin="https://in.example" async></script>'
 */
const scriptTag = (urls: Pick<SetupUrls, 'beacon_url' | 'ingest_url'>, siteKey: string, integrity?: string) =>
  `<script src="${escapeAttribute(urls.beacon_url)}" data-site-key="${escapeAttribute(siteKey)}" ` +
  `data-ingest-origin="${escapeAttribute(urls.ingest_url)}"` +
  (integrity ? ` integrity="${escapeAttribute(integrity)}" crossorigin="anonymous"` : '') +
  ' async></script>';

/**
 * What a site pastes: the one snippet builder of `site add`, `site rotate-key`, `snippet`, the demo
 * page, WordPress registration and the setup API. By default the early-capture stub
 * (docs/early-capture.md) comes first, on a line of its own, so that what happens before beacon.js
 * has run is kept for it; `stub: false` gives the plain async tag alone.
 *
 * @example
 * snippet(setupUrls(links), '3f2a9c1b7e0d4c5a6b7c8d9e')
 * // '<script>!function(w,q){…}(window)</script>\n<script src="https://in.example/beacon.js" … async></script>'
 * snippet(setupUrls(links), '3f2a9c1b7e0d4c5a6b7c8d9e', { stub: false }) // the async tag alone
 */
export const snippet = (
  urls: Pick<SetupUrls, 'beacon_url' | 'ingest_url'>,
  siteKey: string,
  { integrity, stub = true }: { integrity?: string | undefined; stub?: boolean } = {},
) => (stub ? `<script>${EARLY_STUB}</script>\n` : '') + scriptTag(urls, siteKey, integrity);

let stubSource: string | undefined;

/**
 * The CSP source that allows the early-capture stub where `script-src` is strict (CSP3, "hash-source";
 * docs/early-capture.md): SHA-256 of the exact text between the stub's tags, base64, quoted.
 * Computed on first use and kept: the stub is a constant.
 *
 * @example
 * earlyStubSource() // "'sha256-…'"
 */
export const earlyStubSource = () => (stubSource ??= `'sha256-${createHash('sha256').update(EARLY_STUB).digest('base64')}'`);

/**
 * The Subresource Integrity value of a script (https://www.w3.org/TR/SRI/): sha384, base64.
 *
 * @example
 * subresourceIntegrity(readFileSync('dist/beacon.min.js')) // 'sha384-…'
 */
export const subresourceIntegrity = (script: Uint8Array) => `sha384-${createHash('sha384').update(script).digest('base64')}`;

/** What a site installs: the generated URLs (spec section 1), its script tag and the CSP sources its pages need. */
export interface SiteSetup extends SetupUrls {
  site_key: string;
  /** SRI of the beacon as this collector serves it now; absent when the beacon is not built. */
  integrity?: string | undefined;
  /** The early-capture stub, then the async tag (docs/early-capture.md). */
  snippet: string;
  /** The async tag alone: the beacon captures from when it has run. */
  snippet_without_stub: string;
  /**
   * The sources a page's CSP must allow: `connect-src` for the reports, `script-src` for
   * beacon.js and the beacon.vitals.js it loads from beside itself, and the stub's hash
   * (docs/early-capture.md). The plain tag needs all but the hash.
   */
  csp_sources: { 'connect-src': string[]; 'script-src': string[] };
  allowed_origins: string[];
}

/**
 * A site's setup: the one answer of `GET /api/v1/sites/{site_key}/setup`, `sitebeacon snippet` and
 * the dashboard's setup page.
 *
 * @example
 * siteSetup({ appUrl: () => 'https://app.example' }, { site_key: 'abc', allowed_origins: ['https://shop.example'] }, 'sha384-…').snippet
 */
export const siteSetup = (links: Links, site: { site_key: string; allowed_origins: string[] }, integrity?: string): SiteSetup => {
  const urls = setupUrls(links);
  return {
    site_key: site.site_key,
    ...urls,
    integrity,
    snippet: snippet(urls, site.site_key, { integrity }),
    snippet_without_stub: snippet(urls, site.site_key, { integrity, stub: false }),
    csp_sources: cspSources(urls),
    allowed_origins: site.allowed_origins,
  };
};

/**
 * The sources a page's CSP must allow for the snippet (spec section 1, "Browser requirements"):
 * the beacon's host in `script-src`, with the early-capture stub's hash unless `stub: false`
 * (docs/early-capture.md), and the collection host in `connect-src`.
 *
 * @example
 * cspSources(setupUrls(links)) // { 'script-src': ['https://in.example', "'sha256-…'"], 'connect-src': ['https://in.example'] }
 * cspSources(setupUrls(links), { stub: false }) // { 'script-src': ['https://in.example'], 'connect-src': ['https://in.example'] }
 */
export const cspSources = (urls: Pick<SetupUrls, 'beacon_url' | 'api_base'>, { stub = true }: { stub?: boolean } = {}) => ({
  'script-src': [new URL(urls.beacon_url).origin, ...(stub ? [earlyStubSource()] : [])],
  'connect-src': [new URL(urls.api_base).origin],
});
