/** The browsers the cross-browser suite drives. */
export type BrowserName = 'chromium' | 'firefox' | 'webkit';

/**
 * The little the cases need from a browser, the same over CDP (Chromium), WebDriver BiDi
 * (Firefox) and classic WebDriver (WebKit): one tab, real input, a script now and then.
 *
 * @example
 * const browser = await launchFirefox();
 * try {
 *   await browser.goto('https://127.0.0.1:8443/shop');
 *   await browser.click('#throw');
 * } finally {
 *   await browser.close();
 * }
 */
export interface BrowserDriver {
  name: BrowserName;
  /** The browser's own version string, e.g. `firefox/153.7.0` or `2.50.6`. */
  version: string;
  userAgent: string;
  /** Navigates the tab and resolves once the page's `load` event has fired. */
  goto(url: string): Promise<void>;
  /** Clicks the first element matching `selector` with real (trusted) input events. */
  click(selector: string): Promise<void>;
  /** Runs `body` as a function body in the page and returns its JSON result. */
  evaluate<T>(body: string): Promise<T>;
  /** Ends the browser and every process started for it; safe to call twice. */
  close(): Promise<void>;
}
