import { runCheck } from '../check/runCheck';
import { defineCommand } from './defineCommand';

/**
 * `sitebeacon check URL ...`: the connectivity diagnosis (check/runCheck.ts); its exit code is the
 * command's. runCheck reads the words itself (check/parseCheckArgs.ts, the same flags): this
 * declaration gives the CLI its help, its unknown-flag errors and the README's row.
 */
export const check = defineCommand({
  name: ['check'],
  summary: 'diagnose, from this machine, why reports may not arrive (check --help: each step and its exit code)',
  help:
    'diagnoses, from the machine it runs on, why reports do not arrive; see [When reports don\'t arrive](#when-reports-dont-arrive). ' +
    'Steps, in order, and their exit codes: dns, the host resolves (3); connect, TCP through HTTPS_PROXY when set (4: refused, timed out); ' +
    'tls, the handshake with certificate verification (5: clock, CA or TLS interception); http, `GET {api}/test-connectivity` ' +
    'answers `{"status":"success"}` (6: 403 or HTML, a proxy or WAF; 7: not a collector); submission, with `--site`, a real report ' +
    "is accepted (8: refused, prints status and body); page, with `--page`, the page's CSP allows the collector in connect-src and " +
    'the script in script-src, and the site allows the page\'s origin (9). Exit 0 when every step passes, 2 for a usage error',
  args: [{ name: 'URL', help: 'the collector: its API base (`https://HOST/api`) or a host' }],
  flags: {
    site: { type: 'string', value: 'SITE_KEY', help: 'also submit a real report (marked, not counted in the dashboard) with this site key' },
    page: { type: 'string', value: 'PAGE_URL', help: "also check this page's CSP and that the site allows its origin" },
    'connect-timeout': { type: 'string', value: 'S', help: 'connect, proxy tunnel and TLS handshake (default 10)' },
    timeout: { type: 'string', value: 'S', help: 'the whole check (default 20)' },
    ca: { type: 'string', value: 'FILE', help: "also trust this CA certificate (PEM), e.g. an inspection proxy's root, to test it" },
    db: { type: 'string', value: 'FILE', help: 'accepted, as every command takes it, and not used: check reads nothing stored' },
    json: { type: 'boolean', help: 'one JSON object per step: `step`, `ok`, `ms`, `detail`' },
  },
  run: ({ argv }, io) => runCheck({ argv, env: io.env }, io),
});
