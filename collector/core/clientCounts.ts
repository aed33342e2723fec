import { clientOf, type Client } from './clientOf';

/**
 * A client as one line of a "browsers" table: the browser and major version, the OS and the
 * device, or for a bot its name and "bot" (the OS and device a bot claims are its disguise). The
 * OS version stays out: it is unknown for most Windows and Mac visitors until client hints are
 * stored, and would split one browser into many lines.
 *
 * @example
 * clientLabel({ browser: 'Chrome', browser_version: '131', os: 'Android', os_version: null, device: 'mobile', bot: false }) // 'Chrome 131 · Android · mobile'
 */
export const clientLabel = ({ browser, browser_version, os, device, bot }: Client): string => {
  const name = browser_version ? `${browser} ${browser_version}` : browser;
  if (bot) return `${name} · bot`;
  // Without an OS the device is only the default: nothing said it.
  return os ? `${name} · ${os} · ${device}` : name;
};

/**
 * Counts per user agent folded into counts per client label, most first (ties by label).
 *
 * @example
 * clientCounts([{ value: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', reports: 2 }, { value: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.1) Gecko/20100101 Firefox/128.1', reports: 1 }])
 * // [{ browser: 'Firefox 128 · Linux · desktop', reports: 3 }]
 */
export const clientCounts = (rows: Array<{ value: string; reports: number }>): Array<{ browser: string; reports: number }> => {
  const counts = new Map<string, number>();
  for (const { value, reports } of rows) {
    const label = clientLabel(clientOf(value));
    counts.set(label, (counts.get(label) ?? 0) + reports);
  }
  return [...counts].map(([browser, reports]) => ({ browser, reports })).sort((a, b) => b.reports - a.reports || a.browser.localeCompare(b.browser));
};
