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
