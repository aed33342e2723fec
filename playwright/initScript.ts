import type { FixturePageConfig } from './page/protocol';

/**
 * The source of a function as an expression, for the page: an arrow or `function` as it is, a
 * method (`beforeSend(report) {...}`, what `{ beforeSend(report) {} }` gives) as a `function`.
 * The function runs in the page: it cannot use the test's variables.
 *
 * @example
 * functionSource((report) => report) // '(report) => report'
 */
export const functionSource = (fn: (...args: never[]) => unknown): string => {
  const source = fn.toString().trim();
  if (/\[native code\]\s*\}$/.test(source)) {
    throw new TypeError('sitebeacon/playwright: beaconOptions.beforeSend must be a function written in the test (it is sent to the page as source), not a built-in or bound one');
  }
  if (/^(?:async\s*)?(?:function\b|\(|[\w$]+\s*=>)/.test(source)) return source;
  // A method: `name(...) {` or `async name(...) {`.
  const method = /^(async\s+)?(?:[\w$]+)\s*\(/.exec(source);
  if (method) return `${method[1] ?? ''}function ${source.slice(method[0].length - 1)}`;
  throw new TypeError(`sitebeacon/playwright: beaconOptions.beforeSend is not a function expression: ${source.slice(0, 80)}`);
};

/**
 * The init script the fixture adds to the context: the fixture's beacon build (an IIFE assigning
 * `sitebeaconFixture`), called with the test's options. Wrapped in a function, so the build's
 * `var` stays out of the page's globals.
 *
 * @example
 * await context.addInitScript({ content: initScript(code, { siteKey, ingestOrigin, capture: ['errors'] }) });
 */
export const initScript = (code: string, config: Omit<FixturePageConfig, 'beforeSend'>, beforeSend?: FixturePageConfig['beforeSend']) =>
  `(() => {\n${code}\nsitebeaconFixture(Object.assign(${JSON.stringify(config)}, { beforeSend: ${beforeSend ? functionSource(beforeSend) : 'undefined'} }));\n})();\n`;
