import { describe, expect, test } from 'vitest';
import { clientOf, USER_AGENT_LIMIT } from './clientOf';

// User agents as today's browsers send them (Chrome's, Edge's and Firefox's reduced forms included).
const UA = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  chromeMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  chromeAndroidPhone: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  chromeAndroidTablet: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  chromeLinux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  firefoxLinux: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  safariIpadMobileSite: 'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  samsung: 'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  windows7: 'Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36',
};
const BOTS = {
  googlebot: 'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  bingbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/131.0.0.0 Safari/537.36',
  curl: 'curl/8.11.0',
  headlessChrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  lighthouse: 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse',
  pythonRequests: 'python-requests/2.32.3',
};

describe('clientOf: browsers by their user agent', () => {
  test.each([
    ['Chrome on Windows', UA.chromeWindows, { browser: 'Chrome', browser_version: '131', os: 'Windows', device: 'desktop' }],
    ['Chrome on macOS', UA.chromeMac, { browser: 'Chrome', browser_version: '131', os: 'macOS', device: 'desktop' }],
    ['Chrome on an Android phone', UA.chromeAndroidPhone, { browser: 'Chrome', browser_version: '131', os: 'Android', device: 'mobile' }],
    ['Chrome on an Android tablet (no "Mobile")', UA.chromeAndroidTablet, { browser: 'Chrome', browser_version: '131', os: 'Android', device: 'tablet' }],
    ['Chrome on Linux', UA.chromeLinux, { browser: 'Chrome', browser_version: '131', os: 'Linux', device: 'desktop' }],
    ['Firefox on Windows', UA.firefoxWindows, { browser: 'Firefox', browser_version: '133', os: 'Windows', device: 'desktop' }],
    ['Firefox on Linux', UA.firefoxLinux, { browser: 'Firefox', browser_version: '133', os: 'Linux', device: 'desktop' }],
    ['Firefox on Android', UA.firefoxAndroid, { browser: 'Firefox', browser_version: '133', os: 'Android', os_version: '14', device: 'mobile' }],
    ['Safari on macOS', UA.safariMac, { browser: 'Safari', browser_version: '18', os: 'macOS', device: 'desktop' }],
    ['Safari on an iPhone', UA.safariIphone, { browser: 'Safari', browser_version: '18', os: 'iOS', os_version: '18.1', device: 'mobile' }],
    ['Safari on an iPad asking for the mobile site', UA.safariIpadMobileSite, { browser: 'Safari', browser_version: '18', os: 'iOS', os_version: '18.1', device: 'tablet' }],
    ['Edge (which also says Chrome)', UA.edge, { browser: 'Edge', browser_version: '131', os: 'Windows', device: 'desktop' }],
    ['Samsung Internet (which also says Chrome)', UA.samsung, { browser: 'Samsung Internet', browser_version: '26', os: 'Android', os_version: '14', device: 'mobile' }],
  ])('%s', (_name, userAgent, expected) => {
    expect(clientOf(userAgent)).toMatchObject({ os_version: null, ...expected, bot: false });
  });

  test("an iPad's Safari in its default desktop-class mode sends a Mac's user agent, and counts as a Mac", () => {
    // What iPadOS 13 and later send; only the page's JavaScript (maxTouchPoints) could tell.
    expect(clientOf(UA.safariMac)).toEqual({ browser: 'Safari', browser_version: '18', os: 'macOS', os_version: null, device: 'desktop', bot: false });
  });

  test('OS versions a user agent still tells are kept; the frozen ones (Windows NT 10.0, macOS 10.15.7, Android 10; K) are not', () => {
    expect(clientOf(UA.windows7)).toMatchObject({ os: 'Windows', os_version: '7' });
    expect(clientOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_13_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.2 Safari/605.1.15')).toMatchObject({ os: 'macOS', os_version: '10.13.6' });
    expect([UA.chromeWindows, UA.firefoxWindows, UA.chromeMac, UA.safariMac, UA.chromeAndroidPhone].map((ua) => clientOf(ua).os_version)).toEqual([null, null, null, null, null]);
  });
});

describe('clientOf: known bots', () => {
  test.each([
    ['Googlebot', BOTS.googlebot, 'Googlebot'],
    ['Bingbot', BOTS.bingbot, 'Bingbot'],
    ['curl', BOTS.curl, 'curl'],
    ['HeadlessChrome', BOTS.headlessChrome, 'Chrome'],
    ['Lighthouse', BOTS.lighthouse, 'Chrome'],
    ['python-requests', BOTS.pythonRequests, 'python-requests'],
  ])('%s is a bot', (_name, userAgent, browser) => {
    expect(clientOf(userAgent)).toMatchObject({ browser, bot: true });
  });

  test("a tool's name and version come from its product token where no browser is named", () => {
    expect(clientOf(BOTS.curl)).toMatchObject({ browser: 'curl', browser_version: '8', os: null });
    expect(clientOf(BOTS.pythonRequests)).toMatchObject({ browser: 'python-requests', browser_version: '2' });
  });

  test("Googlebot's smartphone crawler is a bot on a phone", () => {
    expect(clientOf(BOTS.googlebot)).toMatchObject({ browser_version: '2', device: 'mobile', bot: true });
  });

  test('none of the browsers above is taken for a bot', () => {
    expect(Object.values(UA).filter((ua) => clientOf(ua).bot)).toEqual([]);
  });
});

describe('clientOf: hostile and missing user agents', () => {
  test('no user agent is Unknown, not a bot (nothing tells), and never throws', () => {
    const unknown = { browser: 'Unknown', browser_version: null, os: null, os_version: null, device: 'desktop', bot: false };
    expect(clientOf('')).toEqual(unknown);
    expect(clientOf('   ')).toEqual(unknown);
    expect(clientOf(null)).toEqual(unknown);
    expect(clientOf(undefined)).toEqual(unknown);
  });

  test('a user agent nothing recognises is Other', () => {
    expect(clientOf('((((((((')).toMatchObject({ browser: 'Other', browser_version: null, os: null });
  });

  test('a 100 kB user agent is read only up to the limit, quickly, and parses as its start', () => {
    const huge = UA.chromeWindows + ' ' + 'x('.repeat(50_000) + ' Googlebot/2.1';
    const started = performance.now();
    const client = clientOf(huge);
    // A bound that holds on a loaded CI machine; unbounded parsing of 100 kB takes far longer with some patterns.
    expect(performance.now() - started).toBeLessThan(250);
    // The bot token past the limit is not read: the cap is what makes the work bounded.
    expect(client).toMatchObject({ browser: 'Chrome', browser_version: '131', os: 'Windows', bot: false });
    expect(clientOf('Mozilla/5.0 ' + '('.repeat(100_000))).toMatchObject({ browser: 'Other', browser_version: null, os: null });
    expect(USER_AGENT_LIMIT).toBe(512);
  });
});
