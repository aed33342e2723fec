/**
 * The `Sec-CH-UA-*` request headers a Chromium browser sends, by their lower-case names (as
 * `Headers` gives them); any may be missing. Their values come from the client: as untrusted as
 * its user agent.
 */
export type ClientHintHeaders = {
  'sec-ch-ua'?: string | null | undefined;
  'sec-ch-ua-mobile'?: string | null | undefined;
  'sec-ch-ua-platform'?: string | null | undefined;
  'sec-ch-ua-platform-version'?: string | null | undefined;
  'sec-ch-ua-full-version-list'?: string | null | undefined;
};

/** What the hints say, each field only where a header said it. */
export type ClientHints = {
  browser?: string;
  browser_version?: string;
  os?: string;
  os_version?: string;
  mobile?: boolean;
};

/** The characters of one header read: a real brand list is under 200. */
const HEADER_LIMIT = 512;
/** Brands read from one list: Chromium sends three or four (one of them a made-up "GREASE" brand). */
const BRANDS_READ = 8;

/** Brands by the name the product shows; a brand not listed keeps its own name (Brave, Opera, Samsung Internet...). */
const BRAND_NAMES: Record<string, string> = {
  'Google Chrome': 'Chrome',
  'Microsoft Edge': 'Edge',
  'Chromium': 'Chromium',
};

/** Platforms by the name the user agent's parser gives them, so that a hint and a user agent make one label. */
const PLATFORM_NAMES: Record<string, string> = { 'Chromium OS': 'Chrome OS' };

/**
 * Windows from `Sec-CH-UA-Platform-Version`: Windows reports its own platform version there,
 * 13 and up on Windows 11, 1 to 10 on Windows 10, and 0.1 to 0.3 on Windows 7, 8 and 8.1
 * (Microsoft's "Detect Windows 11 using User-Agent Client Hints").
 */
const windowsVersionOf = (version: string): string | undefined => {
  const [major, minor] = version.split('.').map(Number);
  if (major === undefined || Number.isNaN(major)) return undefined;
  if (major >= 13) return '11';
  if (major >= 1) return '10';
  return { 1: '7', 2: '8', 3: '8.1' }[minor ?? 0];
};

/** A structured-header string (`"Windows"`) unquoted; undefined when empty or not a string. */
const unquoted = (value: string | null | undefined): string | undefined => {
  const text = value?.slice(0, HEADER_LIMIT).trim().replace(/^"(.*)"$/, '$1');
  return text && !/^unknown$/i.test(text) ? text : undefined;
};

/**
 * The brands of a `Sec-CH-UA` or `Sec-CH-UA-Full-Version-List` list (`"Chromium";v="131",
 * "Not_A Brand";v="24"`), without the GREASE brand Chromium adds so that servers do not expect a
 * fixed list: "Not", "A" and "Brand" with punctuation it picks (`Not_A Brand`, `Not/A)Brand`, ` Not;A Brand`).
 */
const brandsOf = (list: string | null | undefined) => {
  const brands: Array<{ brand: string; version: string }> = [];
  for (const [, brand, version] of (list ?? '').slice(0, HEADER_LIMIT).matchAll(/"([^"]{1,64})"\s*;\s*v\s*=\s*"([^"]{0,32})"/g)) {
    if (brands.length == BRANDS_READ) break;
    if (/^\s*Not.?A.?Brand$/i.test(brand!)) continue;
    brands.push({ brand: brand!, version: version! });
  }
  return brands;
};

/**
 * The `Sec-CH-UA-*` headers as a browser, an OS and whether the device is a phone: the browser is
 * the first brand that is not Chromium itself (Chrome, Edge, Opera and Brave all list Chromium
 * too), its version from the full version list where sent; the OS version as the product counts
 * it (Windows "10" or "11", macOS "14.5"), where Chromium's user agent has frozen it.
 *
 * @example
 * clientHints({ 'sec-ch-ua': '"Chromium";v="131", "Google Chrome";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-platform': '"Windows"', 'sec-ch-ua-platform-version': '"15.0.0"', 'sec-ch-ua-mobile': '?0' })
 * // { browser: 'Chrome', browser_version: '131', os: 'Windows', os_version: '11', mobile: false }
 */
export const clientHints = (headers: ClientHintHeaders = {}): ClientHints => {
  const hints: ClientHints = {};
  const brands = brandsOf(headers['sec-ch-ua-full-version-list']);
  const listed = brands.length ? brands : brandsOf(headers['sec-ch-ua']);
  const chosen = listed.find(({ brand }) => brand != 'Chromium') ?? listed[0];
  if (chosen) {
    hints.browser = BRAND_NAMES[chosen.brand] ?? chosen.brand;
    const major = /^\d+/.exec(chosen.version)?.[0];
    if (major) hints.browser_version = major;
  }
  const platform = unquoted(headers['sec-ch-ua-platform']);
  if (platform) hints.os = PLATFORM_NAMES[platform] ?? platform;
  const version = unquoted(headers['sec-ch-ua-platform-version']);
  if (version && /^\d+(\.\d+)*$/.test(version)) {
    const osVersion = hints.os == 'Windows' ? windowsVersionOf(version) : version.replace(/(\.0)+$/, '');
    if (osVersion) hints.os_version = osVersion;
  }
  const mobile = headers['sec-ch-ua-mobile']?.trim();
  if (mobile == '?1' || mobile == '?0') hints.mobile = mobile == '?1';
  return hints;
};
