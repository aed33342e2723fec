/** How numbers, times and metric values read on the dashboard. */

const formats = new Map<number, Intl.NumberFormat>();

/**
 * Every number the dashboard shows, written one way: thousands grouped with a comma, a point before
 * exactly `decimals` decimals. A count beside a p75 or a sample total must not read as two formats.
 * A value that rounds to zero is written "0", never "-0".
 *
 * @example
 * formatNumber(6500) // "6,500"
 * formatNumber(1234.5, 2) // "1,234.50"
 */
export const formatNumber = (value: number, decimals = 0) => {
  let format = formats.get(decimals);
  if (!format) formats.set(decimals, (format = new Intl.NumberFormat('en', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })));
  return format.format(Math.abs(value) < 0.5 * 10 ** -decimals ? 0 : value);
};

/**
 * The decimals a step between figures needs to tell them apart (a chart's tick step), at most 6.
 *
 * @example
 * decimalsOf(0.25) // 2
 * decimalsOf(50) // 0
 */
export const decimalsOf = (step: number) => {
  for (let decimals = 0; decimals < 6; decimals++) if (Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) < 1e-9) return decimals;
  return 6;
};

/** A share 0..1 → "42%", or with `decimals` "0.5%". */
export const percent = (share: number, decimals = 0) => `${formatNumber(share * 100, decimals)}%`;

/** A metric value with its unit: CLS has none, the others are milliseconds. */
export const metricValue = (name: string, value: number | null | undefined) => {
  if (value == null) return '–';
  if (name == 'CLS') return formatNumber(value, 3);
  return value >= 1000 ? `${formatNumber(value / 1000, 2)} s` : `${formatNumber(value)} ms`;
};

/** An ISO time as "2026-06-10 12:00 UTC": one zone for everyone reading the same page. */
export const time = (iso: string | null | undefined) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '–');

/** The dashboard's time ranges (docs/dashboard.md, "Pages and ranges"). */
export const RANGES = { '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
export type Range = keyof typeof RANGES;

/** The range in the page's `?range=`, 7 days by default. */
export const rangeOf = (search: string): Range => {
  const value = new URLSearchParams(search).get('range');
  return value && value in RANGES ? (value as Range) : '7d';
};

let openedAt: number | undefined;
/**
 * When this page was opened (its first range asked): each page is a page load (links, not
 * client-side routing), and its ranges end there, so that the boot script's early reads and the
 * app's ask the same `since` even when a minute ends between the two (early.ts takes a read by its path).
 */
const pageOpenedAt = () => (openedAt ??= Date.now());

/** `since=ISO` for a range, rounded down to the minute so that reloads within one minute read the same. */
export const sinceOf = (range: Range) => new Date(Math.floor((pageOpenedAt() - RANGES[range]) / 60_000) * 60_000).toISOString();

/** A path segment from stored data, encoded: a site key or fingerprint never becomes markup or another path. */
export const segment = (value: string) => encodeURIComponent(value);

/** The web vitals in the order the dashboard shows them, with what each measures. */
export const METRICS: Array<[name: string, title: string]> = [
  ['LCP', 'Largest Contentful Paint'],
  ['INP', 'Interaction to Next Paint'],
  ['CLS', 'Cumulative Layout Shift'],
  ['FCP', 'First Contentful Paint'],
  ['TTFB', 'Time to First Byte'],
];

/**
 * A stored string cut for a table cell (the full text is on the detail page): a 16 KB message
 * must not make a row a screen tall.
 *
 * @example
 * clip('x'.repeat(500), 200).length // 201
 */
export const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);
