/** The plugin checks in this often (seconds) unless told otherwise. */
export const CHECK_IN_INTERVAL = 3600;

/** The connectivity check needs plugin 1.3.3 or later (spec section 9). */
export const CONNECTIVITY_CHECK_SINCE = [1, 3, 3];

/**
 * Compares dotted versions: missing parts are 0, anything after a number is ignored.
 *
 * @example
 * versionAtLeast('1.3.10', [1, 3, 3]) // true
 */
export const versionAtLeast = (version: string | undefined, minimum: number[]) => {
  const parts = (version ?? '').split('.').map((part) => parseInt(part, 10) || 0);
  for (let index = 0; index < minimum.length; index++) {
    if ((parts[index] ?? 0) != minimum[index]) return (parts[index] ?? 0) > minimum[index]!;
  }
  return true;
};

/**
 * One form of a WordPress site URL, so that registration is idempotent: no trailing slash, no
 * query or fragment.
 *
 * @example
 * normalizeSiteUrl('https://shop.example/blog/?x=1') // 'https://shop.example/blog'
 */
export const normalizeSiteUrl = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
};

/** Where a WordPress registration goes: an existing site, a new one, or a refusal (409). */
export type RegistrationTarget =
  | { site_key: string }
  | { create: true }
  | { conflict: 'origin_not_in_site' | 'site_url_taken' | 'origin_ambiguous'; message: string };

/**
 * The site a WordPress install registers under (docs/hostile-input.md, "Registration across sites"). Registration never changes a
 * site's allowed origins: those say which pages may report under a site's public key, and only an
 * operator sets them (`site add`). So:
 * - with a site's API key (`keySite`), the URL's origin must already be one of that site's origins,
 *   and the URL must not be another site's install (409 otherwise): one site's key never reaches
 *   another site's origins, installs or key;
 * - with an installation key, the URL's install keeps its site; else the one site that already
 *   has the URL's origin is joined (no second site for it); else a new site is created. Two sites
 *   with that origin is for the operator to settle (409).
 *
 * @example
 * registrationTarget({ keySite: { site_key: 'a1', allowed_origins: ['https://shop.example'] }, origin: 'https://blog.example' })
 * // { conflict: 'origin_not_in_site', message: '…' }
 */
export const registrationTarget = ({
  keySite,
  install,
  origin,
  sites = [],
}: {
  keySite?: { site_key: string; allowed_origins: readonly string[] } | undefined;
  install?: { site_key: string } | undefined;
  origin: string;
  /** Every site: needed only for an installation key when no install has the URL. */
  sites?: ReadonlyArray<{ site_key: string; allowed_origins: readonly string[] }>;
}): RegistrationTarget => {
  if (keySite) {
    if (!keySite.allowed_origins.includes(origin)) {
      return {
        conflict: 'origin_not_in_site',
        message: `${origin} is not one of the origins of this API key's site; an operator adds it to the site, or registers with an installation key`,
      };
    }
    if (install && install.site_key != keySite.site_key) {
      return { conflict: 'site_url_taken', message: 'this site_url is registered to another site' };
    }
    return { site_key: keySite.site_key };
  }
  if (install) return { site_key: install.site_key };
  const owners = sites.filter((site) => site.allowed_origins.includes(origin));
  if (owners.length > 1) {
    return {
      conflict: 'origin_ambiguous',
      message: `${owners.length} sites allow ${origin} (${owners.map((site) => site.site_key).join(', ')}): register with the API key of the one to join`,
    };
  }
  return owners[0] ? { site_key: owners[0].site_key } : { create: true };
};

/** What the plugin reports for one action. */
export interface ActionOutcome {
  status: 'succeeded' | 'failed';
  message?: string | undefined;
  result?: Record<string, unknown> | undefined;
}

/**
 * Whether an outcome is the one already recorded: a plugin that retries a result it sent gets the
 * same answer, but a completed action's result never changes (409 otherwise: docs/integrations.md, "WordPress").
 *
 * @example
 * sameOutcome({ status: 'succeeded', message: 'ok' }, { status: 'succeeded', message: 'ok' }) // true
 */
export const sameOutcome = (recorded: ActionOutcome, reported: ActionOutcome) =>
  recorded.status == reported.status &&
  (recorded.message ?? null) === (reported.message ?? null) &&
  JSON.stringify(recorded.result ?? null) === JSON.stringify(reported.result ?? null);
