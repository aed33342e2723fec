import puppeteer, { type Browser, type LaunchOptions } from 'puppeteer-core';
import { CHROMIUM_ARGS } from '../chromium.mjs';
import { findBrowser } from './browsers.mjs';
import type { BrowserDriver } from './driver';

/** A loaded 2-core machine can take a while to start a browser. */
const LAUNCH_TIMEOUT = 90_000;

const launchOptions = (name: 'chromium' | 'firefox'): LaunchOptions => {
  const found = findBrowser(name) as { chromium?: string; firefox?: string };
  if (name == 'firefox') {
    // Puppeteer speaks WebDriver BiDi to Firefox (CDP support is gone from Firefox).
    return {
      browser: 'firefox',
      protocol: 'webDriverBiDi',
      executablePath: found.firefox!,
      headless: true,
      // The test pages and the collector use a self-signed certificate; this also covers the
      // browser's own report-uri and report-to requests (the fixtures were captured so).
      acceptInsecureCerts: true,
      timeout: LAUNCH_TIMEOUT,
    };
  }
  return {
    browser: 'chrome',
    executablePath: found.chromium!,
    headless: true,
    acceptInsecureCerts: true,
    timeout: LAUNCH_TIMEOUT,
    // Without --ignore-certificate-errors Chromium keeps Reporting API uploads to a self-signed
    // endpoint queued, and --short-reporting-delay sends them within seconds instead of a minute
    // (collector/fixtures/README.md). --no-sandbox as Playwright passes it: CI runs as root.
    args: [...CHROMIUM_ARGS, '--no-sandbox', '--ignore-certificate-errors', '--short-reporting-delay'],
  };
};

/** `browser.close()`, or SIGKILL for the process we started when a wedged browser does not close in time. */
const closeBrowser = async (browser: Browser) => {
  const child = browser.process();
  let timer: NodeJS.Timeout | undefined;
  const killed = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      child?.kill('SIGKILL');
      resolve();
    }, 15_000);
  });
  await Promise.race([browser.close().catch(() => child?.kill('SIGKILL')), killed]);
  clearTimeout(timer);
};

/**
 * Chromium over CDP or Firefox ESR over WebDriver BiDi, through puppeteer-core (which never
 * downloads a browser: the executables are Debian's, see browsers.mjs).
 *
 * @example
 * const firefox = await launchPuppeteer('firefox');
 * await firefox.goto('https://127.0.0.1:8443/');
 * await firefox.close();
 */
export const launchPuppeteer = async (name: 'chromium' | 'firefox'): Promise<BrowserDriver> => {
  const browser: Browser = await puppeteer.launch(launchOptions(name));
  try {
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    page.setDefaultTimeout(60_000);
    page.setDefaultNavigationTimeout(60_000);
    const userAgent = await browser.userAgent();
    let closed = false;
    return {
      name,
      version: await browser.version(),
      userAgent,
      goto: async (url) => void (await page.goto(url, { waitUntil: 'load' })),
      click: (selector) => page.click(selector),
      evaluate: <T>(body: string) => page.evaluate(`(async () => { ${body} })()`) as Promise<T>,
      close: async () => {
        if (closed) return;
        closed = true;
        await closeBrowser(browser);
      },
    };
  } catch (error) {
    await closeBrowser(browser);
    throw error;
  }
};
