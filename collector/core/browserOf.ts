/** Engines and browsers by the token their user agents carry, most specific first (Edge and Opera also say Chrome; Chrome also says Safari). */
const BROWSERS: Array<[name: string, pattern: RegExp]> = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\bOPR\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//],
];

/**
 * A user agent as a browser name and major version, for the error group's "browsers" table; the
 * full user agents stay in the stored reports.
 *
 * @example
 * browserOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36') // 'Chrome 130'
 */
export const browserOf = (userAgent: string): string => {
  if (!userAgent) return 'Unknown';
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(userAgent);
    if (match) return `${name} ${match[1]}`;
  }
  return 'Other';
};

/**
 * Counts per user agent folded into counts per browser, most first.
 *
 * @example
 * browserCounts([{ value: 'Firefox/128.0', reports: 2 }, { value: 'Firefox/128.1', reports: 1 }]) // [{ browser: 'Firefox 128', reports: 3 }]
 */
export const browserCounts = (rows: Array<{ value: string; reports: number }>) => {
  const counts = new Map<string, number>();
  for (const { value, reports } of rows) counts.set(browserOf(value), (counts.get(browserOf(value)) ?? 0) + reports);
  return [...counts].map(([browser, reports]) => ({ browser, reports })).sort((a, b) => b.reports - a.reports || a.browser.localeCompare(b.browser));
};
