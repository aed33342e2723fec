import { parseArgs } from 'node:util';
import { targetFromUrl, type Target } from './targetFromUrl';

/** The help text of `sitebeacon check`. */
export const CHECK_USAGE = `Usage: sitebeacon check URL [--site SITE_KEY] [--page PAGE_URL] [--connect-timeout S] [--timeout S] [--ca FILE] [--json]

Diagnoses, from this machine, why reports may not reach the collector (spec section 7). URL is the
API base (ending in /api) or a host (then https://HOST/api). Steps, in order, and exit codes:
  dns         the host resolves                                    3
  connect     TCP connection (through HTTPS_PROXY when set)         4 (refused, timed out)
  tls         handshake with certificate verification               5 (clock, CA or TLS interception)
  http        GET {api}/test-connectivity is {"status":"success"}   6 (403 or HTML: proxy/WAF), 7 (not a collector)
  submission  with --site: a real report is accepted                8 (refused; prints status and body)
  page        with --page: the page's CSP (header, <meta>) allows   9 (prints the sources to add)
              the collector in connect-src, the script in script-src
  origin      with --page: the site allows the page's origin        9
Exit 0 when every step passes, 2 for a usage error.
  --connect-timeout S  connect, proxy tunnel and TLS handshake (default 10)
  --timeout S          the whole check (default 20)
  --ca FILE            also trust this CA certificate (PEM), e.g. an inspection proxy's root, to test it
  --json               one JSON object per step: step, ok, ms, detail
`;

/** What `sitebeacon check` was asked. */
export interface CheckArgs {
  target: Target;
  site: string | undefined;
  page: URL | undefined;
  connectTimeoutMs: number;
  timeoutMs: number;
  ca: string | undefined;
  json: boolean;
  help: boolean;
}

const secondsOption = (value: string | undefined, flag: string, fallback: number) => {
  if (value === undefined) return fallback * 1000;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > 3600) throw new Error(`${flag} ${value} is not a number of seconds (0 < S <= 3600)`);
  return Math.round(parsed * 1000);
};

/**
 * Reads the arguments of `sitebeacon check`; returns the usage error's message for bad ones.
 * Defaults from spec section 8: connect timeout 10 s, total 20 s. `--db` is accepted and ignored,
 * as every command takes it (README, "The collector").
 *
 * @example
 * parseCheckArgs(['collector.example', '--site', 'abc', '--json']);
 * // { target: { apiBase: 'https://collector.example/api', … }, site: 'abc', json: true, timeoutMs: 20000, … }
 */
export const parseCheckArgs = (argv: string[]): CheckArgs | string => {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        site: { type: 'string' },
        page: { type: 'string' },
        'connect-timeout': { type: 'string' },
        timeout: { type: 'string' },
        ca: { type: 'string' },
        json: { type: 'boolean', default: false },
        db: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) return { help: true } as CheckArgs;
    if (positionals.length != 1) return positionals.length ? `check takes one URL, not ${positionals.length}` : 'check needs the collector URL: its API base (https://HOST/api) or a host';
    const target = targetFromUrl(positionals[0]!);
    if (typeof target == 'string') return target;
    if (values.site !== undefined && !values.site.trim()) return '--site needs a site key';
    let page: URL | undefined;
    if (values.page !== undefined) {
      try {
        page = new URL(values.page);
      } catch {
        return `--page ${values.page} is not a URL`;
      }
      if (page.protocol != 'https:' && page.protocol != 'http:') return `--page ${values.page} is not an http(s) page`;
    }
    return {
      target,
      site: values.site?.trim(),
      page,
      connectTimeoutMs: secondsOption(values['connect-timeout'], '--connect-timeout', 10),
      timeoutMs: secondsOption(values.timeout, '--timeout', 20),
      ca: values.ca,
      json: values.json,
      help: false,
    };
  } catch (error) {
    return (error as Error).message;
  }
};
