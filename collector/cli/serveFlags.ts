import { DATABASE_FLAGS, LINK_FLAGS } from './commonFlags';
import type { Flag } from './defineCommand';

/**
 * `sitebeacon serve`'s settings: each a flag and a `SITEBEACON_*` variable (a flag wins), as
 * systemd's environment file sets them (deploy/sitebeacon.env.example). `--json` is how it
 * prints, not a setting, and has none.
 */
export const SERVE_FLAGS = {
  port: { type: 'string', value: 'N', env: 'SITEBEACON_PORT', help: 'the port it listens on (default 8787; 0: any free port)' },
  host: { type: 'string', value: 'HOST', env: 'SITEBEACON_HOST', help: 'the address it listens on (default 127.0.0.1: behind a reverse proxy, keep it on loopback)' },
  ...LINK_FLAGS,
  demo: {
    type: 'boolean',
    env: 'SITEBEACON_DEMO',
    help:
      'adds the demo site, the page `/demo` and the demo user, who sees every site and exists only while a `--demo` run runs: ' +
      'it is removed with its sessions when that run stops, and by the next start without `--demo` when the run was killed; ' +
      'each `--demo` start gives it a new password and ends its earlier sessions',
  },
  'tls-cert': { type: 'string', value: 'FILE', env: 'SITEBEACON_TLS_CERT', help: 'serves HTTPS directly with this certificate (PEM); goes with `--tls-key`' },
  'tls-key': { type: 'string', value: 'FILE', env: 'SITEBEACON_TLS_KEY', help: "the certificate's private key (PEM); goes with `--tls-cert`" },
  'rate-limit': {
    type: 'string',
    value: 'N',
    env: 'SITEBEACON_RATE_LIMIT',
    help:
      "requests per second per client IP (default 20), bursts of two seconds' worth; 0 turns it off; a request the client's limit " +
      "refuses takes nothing from the site's, so one client flooding a site key cannot starve its other visitors",
  },
  'site-rate-limit': {
    type: 'string',
    value: 'N',
    env: 'SITEBEACON_SITE_RATE_LIMIT',
    help: "requests per second per site (default 500), bursts of two seconds' worth; 0 turns it off",
  },
  'trust-proxy': {
    type: 'boolean',
    env: 'SITEBEACON_TRUST_PROXY',
    help:
      'the client IP comes from `X-Forwarded-For` (its last entry, the one your proxy adds), and the scheme and host the browser ' +
      "used from `X-Forwarded-Proto` and `X-Forwarded-Host` (the sign-in's CSRF check and the cookie's `Secure`: sign-in behind a " +
      'TLS-terminating proxy works without `--public-url`; the links the collector hands out, in snippets and to the WordPress ' +
      'plugin and agents, still need `--public-url`); without it those headers are ignored',
  },
  'max-connections-per-client': {
    type: 'string',
    value: 'N',
    env: 'SITEBEACON_MAX_CONNECTIONS_PER_CLIENT',
    help:
      "at most N open connections per client address (default 64): the next one is closed at once, the client's other " +
      'connections and other clients are served as before; 0 turns the cap off. Counted by the connection\'s own address: with ' +
      "`--trust-proxy` that is the proxy's for every client, so there the cap is off unless given (limit clients at the proxy: nginx `limit_conn`)",
  },
  'log-level': {
    type: 'string',
    value: 'info|warn|error|silent',
    env: 'SITEBEACON_LOG_LEVEL',
    help:
      'one JSON line per request on stderr (`info`, the default: all; `warn`: 4xx and 5xx, and reports not stored for a foreign ' +
      'document, `foreign_reports`; `error`: 5xx; `silent`: none)',
  },
  sync: {
    type: 'string',
    value: 'normal|full',
    env: 'SITEBEACON_SYNC',
    help:
      'when a report is durable before its 2xx: `normal` (default), once its commit is in the operating system: a crash or kill ' +
      'of the collector loses nothing acknowledged, a power loss or OS crash may lose the last commits; `full`, once the commit is ' +
      'fsynced to the disk: power-loss safe. SQLite only: with `--database-url` the flag is a usage error (PostgreSQL\'s ' +
      '`synchronous_commit` decides). See [Storage and durability](#storage-and-durability) for what it costs',
  },
  'agent-updates-dir': {
    type: 'string',
    value: 'DIR',
    env: 'SITEBEACON_AGENT_UPDATES_DIR',
    help:
      'publishes the newest build of `DIR` per architecture to Linux agents as an Ed25519-signed manifest; builds are named ' +
      '`sitebeacon-agent-X.Y.Z-linux-ARCH` (an ELF binary) or `….tar.gz` / `….tgz` (gzip), `ARCH` one of `amd64`, `arm64`, ' +
      '`armv7`, `386`; any other file of the folder (`checksums.txt`, signatures, a file named like a build that is not one) ' +
      'is never offered nor downloadable',
  },
  'agent-signing-key': {
    type: 'string',
    value: 'FILE',
    env: 'SITEBEACON_AGENT_SIGNING_KEY',
    help: 'the Ed25519 key that signs the manifests, created if missing (default: beside the SQLite file; with `--database-url` it must be given, the same on every collector)',
  },
  'retention-days': {
    type: 'string',
    value: 'N',
    env: 'SITEBEACON_RETENTION_DAYS',
    help:
      'deletes reports received, and performance sessions last updated, more than N days ago: at start and every minute, ' +
      "1,000 rows per transaction, the summary's aggregates updated in the same transaction (see [Retention](#retention))",
  },
  'smtp-url': {
    type: 'string',
    value: 'URL',
    env: 'SITEBEACON_SMTP_URL',
    help:
      'the mail server alerts are sent through: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`; ' +
      'goes with `--mail-from` (see [docs/alerts.md](docs/alerts.md))',
  },
  'mail-from': { type: 'string', value: 'ADDRESS', env: 'SITEBEACON_MAIL_FROM', help: "alert mail's `From`, such as `sitebeacon <alerts@shop.example>`" },
  'allow-private-webhooks': {
    type: 'boolean',
    env: 'SITEBEACON_ALLOW_PRIVATE_WEBHOOKS',
    help: 'lets alert webhooks post to private, loopback and link-local addresses (refused by default: a site user could reach the internal network)',
  },
  ...DATABASE_FLAGS,
  json: {
    type: 'boolean',
    help: 'prints one line `{"url", "public_url", "db", "dashboard"}` on stdout once it listens (with `--demo`, also `"demo"` and `"demo_user"`), for tools and tests',
  },
} as const satisfies Record<string, Flag>;
