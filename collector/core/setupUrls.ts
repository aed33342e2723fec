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
 * The script tag a site pastes (../shared/design.md, "Script tag"): the one snippet builder of
 * `site add`, `snippet`, the demo page, WordPress registration and the setup API.
 *
 * @example
 * snippet(setupUrls(links), '3f2a9c1b7e0d4c5a6b7c8d9e')
 * // '<script src="https://in.example/beacon.js" data-site-key="3f2a…" data-ingest-origin="https://in.example" async></script>'
 */
export const snippet = (urls: Pick<SetupUrls, 'beacon_url' | 'ingest_url'>, siteKey: string, integrity?: string) =>
  `<script src="${escapeAttribute(urls.beacon_url)}" data-site-key="${escapeAttribute(siteKey)}" ` +
  `data-ingest-origin="${escapeAttribute(urls.ingest_url)}"` +
  (integrity ? ` integrity="${escapeAttribute(integrity)}" crossorigin="anonymous"` : '') +
  ' async></script>';

/**
 * The sources a page's CSP must allow for the snippet (spec section 1, "Browser requirements"):
 * the beacon's host in `script-src`, the collection host in `connect-src`.
 *
 * @example
 * cspSources(setupUrls(links)) // { 'script-src': ['https://in.example'], 'connect-src': ['https://in.example'] }
 */
export const cspSources = (urls: Pick<SetupUrls, 'beacon_url' | 'api_base'>) => ({
  'script-src': [new URL(urls.beacon_url).origin],
  'connect-src': [new URL(urls.api_base).origin],
});
