import Bowser from 'bowser';
import { isbot } from 'isbot';
import { clientHints, type ClientHintHeaders } from './clientHints';

/** What sent a report: its browser, OS and kind of device, and whether it is a known bot. */
export type Client = {
  /** "Chrome", "Firefox", "Safari", "Edge", "Samsung Internet", "Googlebot", "curl"...; "Other" when nothing names it, "Unknown" without a user agent. */
  browser: string;
  /** The major version ("131"), or null. */
  browser_version: string | null;
  /** "Windows", "macOS", "Android", "iOS", "Linux", "Chrome OS"..., or null. */
  os: string | null;
  /** Null where the user agent has frozen it (see `FROZEN_OS_VERSIONS`) and no hint tells. */
  os_version: string | null;
  device: 'mobile' | 'tablet' | 'desktop';
  bot: boolean;
};

/**
 * The characters of a user agent examined: it is the client's to choose, and a parser's work
 * grows with it. Real browsers' user agents stay under 300 characters.
 */
export const USER_AGENT_LIMIT = 512;

/** The parser's names shortened to the names people use. */
const BROWSER_NAMES: Record<string, string> = {
  'Microsoft Edge': 'Edge',
  'Samsung Internet for Android': 'Samsung Internet',
  'BingCrawler': 'Bingbot',
};

/**
 * OS versions user agents no longer tell: Chrome, Edge and Firefox say "Windows NT 10.0" on
 * Windows 10 and 11; Chrome, Firefox and Safari say macOS 10.15(.7) on every later macOS; Chrome's
 * reduced user agent says "Android 10; K" on every Android. Reporting them would show a version
 * most of these visitors do not have; `Sec-CH-UA-Platform-Version` tells the real one.
 */
const FROZEN_OS_VERSIONS: Array<[os: string, version: RegExp]> = [
  ['Windows', /^NT 10\.0$/],
  ['macOS', /^10\.15(\.7)?$/],
];

const UNKNOWN: Client = { browser: 'Unknown', browser_version: null, os: null, os_version: null, device: 'desktop', bot: false };

/** The first product token of a user agent no parser names (`curl/8.11.0`, `python-requests/2.32.3`); every browser's is the meaningless `Mozilla/5.0`. */
const productOf = (userAgent: string) => (/^Mozilla\//.test(userAgent) ? undefined : (/^([A-Za-z][\w.-]{0,39})\/(\d+)/.exec(userAgent) ?? undefined));

/** The OS version the product shows: Windows by its marketing name ("7", "10"), the others by number. */
const osVersionOf = (os: Bowser.Parser.OSDetails, userAgent: string): string | null => {
  const { name = '', version, versionName } = os;
  if (!version || FROZEN_OS_VERSIONS.some(([frozenOs, frozen]) => frozenOs == name && frozen.test(version))) return null;
  if (name == 'Android' && /\bAndroid 10; K\)/.test(userAgent)) return null;
  return name == 'Windows' ? (versionName ?? null) : version;
};

/** The kind of device, where the parser knows it; bots and TVs say what their user agent imitates. */
const deviceOf = (type: string | undefined, userAgent: string): Client['device'] => {
  if (type == 'mobile' || type == 'tablet') return type;
  return type != 'desktop' && /\bMobile\b/.test(userAgent) ? 'mobile' : 'desktop';
};

const parse = (header: string, headers: ClientHintHeaders | undefined): Client => {
  const userAgent = header.slice(0, USER_AGENT_LIMIT);
  if (!userAgent.trim() && !headers?.['sec-ch-ua']) return UNKNOWN;
  const parsed = userAgent.trim() ? Bowser.parse(userAgent) : undefined;
  // The parser's last resort names the first product token, which for a browser it does not know is "Mozilla".
  const named = parsed?.browser.name && parsed.browser.name != 'Mozilla' ? parsed.browser : undefined;
  const product = named ? undefined : productOf(userAgent);
  const hints = clientHints(headers);
  const uaDevice = deviceOf(parsed?.platform.type, userAgent);
  const os = hints.os ?? parsed?.os.name ?? null;
  const browserName = named?.name ?? product?.[1];
  return {
    browser: hints.browser ?? (browserName ? (BROWSER_NAMES[browserName] ?? browserName) : 'Other'),
    browser_version: hints.browser_version ?? /^\d+/.exec((named ? named.version : product?.[2]) ?? '')?.[0] ?? null,
    os,
    // A hinted platform unlike the user agent's (a desktop site requested on a phone) leaves no version to trust but the hint's.
    os_version: hints.os_version ?? (parsed && os == parsed.os.name ? osVersionOf(parsed.os, userAgent) : null),
    // Chromium on an Android tablet sends `Sec-CH-UA-Mobile: ?0`, as a desktop does.
    device: hints.mobile === undefined ? uaDevice : hints.mobile ? 'mobile' : uaDevice == 'tablet' || os == 'Android' ? 'tablet' : 'desktop',
    bot: isbot(userAgent) || parsed?.platform.type == 'bot' || hints.browser == 'HeadlessChrome',
  };
};

/**
 * The client a report came from, by its user agent and, where the browser sent them, its
 * `Sec-CH-UA-*` client hints, which win where given (Chromium freezes the OS version and device
 * model in its user agent, and tells them in hints). Bots are the ones `isbot`'s list knows, plus
 * headless Chrome. Only the first `USER_AGENT_LIMIT` characters are read; it never throws.
 *
 * An iPad's Safari sends the user agent of a Mac ("desktop-class browsing") unless the page asked for
 * the mobile site: nothing in the request tells them apart, so such an iPad counts as macOS, desktop.
 *
 * @example
 * clientOf('Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36')
 * // { browser: 'Chrome', browser_version: '131', os: 'Android', os_version: null, device: 'mobile', bot: false }
 */
export const clientOf = (userAgent: string | null | undefined, headers?: ClientHintHeaders): Client => {
  try {
    return parse(typeof userAgent == 'string' ? userAgent : '', headers);
  } catch {
    // A parser's bug on one hostile user agent must not fail the read that shows it.
    return { ...UNKNOWN, browser: 'Other' };
  }
};
