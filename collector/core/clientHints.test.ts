import { describe, expect, test } from 'vitest';
import { clientHints } from './clientHints';
import { clientOf } from './clientOf';

// Chrome's reduced user agent on Windows: "Windows NT 10.0" on Windows 10 and 11 alike.
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CHROME_ANDROID_TABLET = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CHROME_ANDROID_PHONE = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

// The headers as Chrome 131 sends them on Windows 11.
const WINDOWS_11 = {
  'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Windows"',
  'sec-ch-ua-platform-version': '"15.0.0"',
  'sec-ch-ua-full-version-list': '"Google Chrome";v="131.0.6778.86", "Chromium";v="131.0.6778.86", "Not_A Brand";v="24.0.0.0"',
};

describe('clientHints', () => {
  test("the brand that is not Chromium nor GREASE, Windows 11 from the platform version, the phone bit", () => {
    expect(clientHints(WINDOWS_11)).toEqual({ browser: 'Chrome', browser_version: '131', os: 'Windows', os_version: '11', mobile: false });
  });

  test('Windows 10 and older Windows by their platform versions; macOS and Android by number', () => {
    const windows = (version: string) => clientHints({ 'sec-ch-ua-platform': '"Windows"', 'sec-ch-ua-platform-version': `"${version}"` }).os_version;
    expect([windows('13.0.0'), windows('10.0.0'), windows('1.0.0'), windows('0.3.0'), windows('0.1.0')]).toEqual(['11', '10', '10', '8.1', '7']);
    expect(clientHints({ 'sec-ch-ua-platform': '"macOS"', 'sec-ch-ua-platform-version': '"14.5.0"' })).toEqual({ os: 'macOS', os_version: '14.5' });
    expect(clientHints({ 'sec-ch-ua-platform': '"Android"', 'sec-ch-ua-platform-version': '"14.0.0"', 'sec-ch-ua-mobile': '?1' })).toEqual({ os: 'Android', os_version: '14', mobile: true });
  });

  test('Edge, and the GREASE brands of other Chromium versions, from the short list when no full list is sent', () => {
    expect(clientHints({ 'sec-ch-ua': '"Microsoft Edge";v="131", "Chromium";v="131", "Not_A Brand";v="24"' })).toEqual({ browser: 'Edge', browser_version: '131' });
    expect(clientHints({ 'sec-ch-ua': '"Not/A)Brand";v="8", "Chromium";v="126", "Brave";v="126"' })).toEqual({ browser: 'Brave', browser_version: '126' });
    expect(clientHints({ 'sec-ch-ua': '" Not A;Brand";v="99", "Chromium";v="96"' })).toEqual({ browser: 'Chromium', browser_version: '96' });
  });

  test('missing, empty, "Unknown" and malformed headers say nothing', () => {
    expect(clientHints()).toEqual({});
    expect(clientHints({ 'sec-ch-ua': '', 'sec-ch-ua-platform': '"Unknown"', 'sec-ch-ua-platform-version': '""', 'sec-ch-ua-mobile': 'yes' })).toEqual({});
    expect(clientHints({ 'sec-ch-ua': 'Chrome 131', 'sec-ch-ua-platform-version': '"<script>"', 'sec-ch-ua-platform': null })).toEqual({});
  });

  test('a huge header is read only up to its limit', () => {
    const brands = Array.from({ length: 20_000 }, (_, i) => `"B${i}";v="1"`).join(', ');
    expect(clientHints({ 'sec-ch-ua': brands })).toEqual({ browser: 'B0', browser_version: '1' });
  });
});

describe('clientOf with client hints: the hints win where given', () => {
  test("Windows 11 behind Chrome's frozen Windows NT 10.0", () => {
    expect(clientOf(CHROME_WINDOWS).os_version).toBeNull();
    expect(clientOf(CHROME_WINDOWS, WINDOWS_11)).toEqual({ browser: 'Chrome', browser_version: '131', os: 'Windows', os_version: '11', device: 'desktop', bot: false });
  });

  test("the Android version Chrome's reduced user agent hides, and a tablet's ?0 is not a desktop", () => {
    const android = { 'sec-ch-ua-platform': '"Android"', 'sec-ch-ua-platform-version': '"14.0.0"' };
    expect(clientOf(CHROME_ANDROID_PHONE, { ...android, 'sec-ch-ua-mobile': '?1' })).toMatchObject({ os: 'Android', os_version: '14', device: 'mobile' });
    expect(clientOf(CHROME_ANDROID_TABLET, { ...android, 'sec-ch-ua-mobile': '?0' })).toMatchObject({ os: 'Android', os_version: '14', device: 'tablet' });
  });

  test("a brand the user agent hides (Brave says Chrome) and headless Chrome's own brand", () => {
    expect(clientOf(CHROME_WINDOWS, { 'sec-ch-ua': '"Brave";v="131", "Chromium";v="131", "Not_A Brand";v="24"' })).toMatchObject({ browser: 'Brave', bot: false });
    expect(clientOf(CHROME_WINDOWS, { 'sec-ch-ua': '"HeadlessChrome";v="131", "Chromium";v="131"' })).toMatchObject({ bot: true });
  });

  test('hints without a user agent still name the browser', () => {
    expect(clientOf('', WINDOWS_11)).toMatchObject({ browser: 'Chrome', os: 'Windows', os_version: '11', device: 'desktop' });
  });
});
