/**
 * Where this collector is reached (spec section 1): `{app_url}`, the main / legacy address that
 * also serves agent updates, and `{ingest_url}`, the dedicated collection host when one is set.
 * Browsers and the WordPress plugin collect at the ingest host's `/api` when it exists.
 */
export interface Links {
  appUrl: () => string;
  ingestUrl?: () => string | undefined;
}

const trim = (url: string) => url.replace(/\/+$/, '');

export const resolveLinks = (links: Links) => {
  const app = trim(links.appUrl());
  const ingest = trim(links.ingestUrl?.() || app);
  return {
    appUrl: app,
    ingestUrl: ingest,
    /** `{base_url}`: the API base collection follows. */
    apiBase: `${ingest}/api`,
    /** The legacy API base on the app host: the WordPress plugin's fallback. */
    legacyApiBase: `${app}/api`,
    beaconUrl: `${ingest}/beacon.js`,
    snippet: (siteKey: string) =>
      `<script src="${ingest}/beacon.js" data-site-key="${siteKey}" data-ingest-origin="${ingest}" async></script>`,
  };
};
