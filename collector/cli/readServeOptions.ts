import { resolve } from 'node:path';
import { DEFAULT_MAX_CONNECTIONS_PER_CLIENT } from '../listen';
import { isPostgresUrl } from '../store/openStore';
import type { Sync } from '../store/sqlite/openConnection';
import { baseUrl, databaseLocation, UsageError, type CliIO } from './args';
import type { Parsed } from './defineCommand';
import type { SERVE_FLAGS } from './serveFlags';

/** The least status a request needs to be logged at each `--log-level`. */
export const LOG_LEVELS: Record<string, number> = { info: 0, warn: 400, error: 500, silent: Infinity };

/**
 * `serve`'s settings, checked, from its flags and their `SITEBEACON_*` variables (serveFlags.ts);
 * a value that makes no sense is a UsageError naming where it came from (the flag or the variable).
 *
 * @example
 * const { port, host, database } = readServeOptions(parseCommand(serve, ['--port', '0'], io), io);
 */
export const readServeOptions = ({ values, source }: Parsed<typeof SERVE_FLAGS>, io: CliIO) => {
  const port = Number(values.port ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`${source('port')} ${values.port} is not a port`);
  const rate = (flag: 'rate-limit' | 'site-rate-limit') => {
    const value = values[flag];
    if (value === undefined) return {};
    const perSecond = Number(value);
    if (!(perSecond >= 0)) throw new UsageError(`${source(flag)} ${value} is not a number of requests per second`);
    return { [flag == 'rate-limit' ? 'perIp' : 'perSite']: perSecond };
  };
  if (!!values['tls-cert'] != !!values['tls-key']) throw new UsageError('--tls-cert and --tls-key go together');
  const retentionDays = values['retention-days'] === undefined ? undefined : Number(values['retention-days']);
  if (retentionDays !== undefined && !(retentionDays > 0 && retentionDays <= 36_500)) {
    throw new UsageError(`${source('retention-days')} ${values['retention-days']} is not a number of days (more than 0)`);
  }
  // Counted by the socket's address: behind a proxy (--trust-proxy) every connection is the
  // proxy's, so there the cap is off unless given (the proxy limits its clients: README, "Security").
  const maxConnections = values['max-connections-per-client'];
  const maxConnectionsPerClient = maxConnections === undefined ? (values['trust-proxy'] ? 0 : DEFAULT_MAX_CONNECTIONS_PER_CLIENT) : Number(maxConnections);
  if (!(Number.isInteger(maxConnectionsPerClient) && maxConnectionsPerClient >= 0)) {
    throw new UsageError(`${source('max-connections-per-client')} ${maxConnections} is not a number of connections (0 turns the cap off)`);
  }
  const database = databaseLocation(values, io);
  if (values['agent-updates-dir'] && !values['agent-signing-key'] && isPostgresUrl(database)) {
    // The default key lives beside the SQLite file; collectors sharing PostgreSQL must share one key.
    throw new UsageError('with --database-url, --agent-updates-dir needs --agent-signing-key FILE (the same key on every collector)');
  }
  const logLevel = values['log-level'] || 'info';
  const minimumStatus = LOG_LEVELS[logLevel];
  if (minimumStatus === undefined) throw new UsageError(`${source('log-level')} ${logLevel} is not one of ${Object.keys(LOG_LEVELS).join(', ')}`);
  const sync = values.sync || 'normal';
  if (sync != 'normal' && sync != 'full') throw new UsageError(`${source('sync')} ${sync} is not one of normal, full`);
  // PostgreSQL's durability is the server's own (synchronous_commit): --sync is SQLite's pragma. A
  // SITEBEACON_SYNC left in an environment file shared with SQLite collectors is ignored there.
  if (values.sync && source('sync') == '--sync' && isPostgresUrl(database)) {
    throw new UsageError('--sync is for SQLite files; with --database-url, PostgreSQL\'s synchronous_commit decides');
  }
  if (!!values['smtp-url'] != !!values['mail-from']) throw new UsageError('--smtp-url and --mail-from go together');
  let mail: { smtpUrl: string; from: string } | undefined;
  if (values['smtp-url']) {
    const protocol = URL.canParse(values['smtp-url']) ? new URL(values['smtp-url']).protocol : undefined;
    if (protocol != 'smtp:' && protocol != 'smtps:') throw new UsageError(`${source('smtp-url')} is smtp://user:pass@host:port or smtps://...`);
    mail = { smtpUrl: values['smtp-url'], from: values['mail-from']! };
  }
  return {
    port,
    mail,
    allowPrivateWebhooks: Boolean(values['allow-private-webhooks']),
    host: values.host || '127.0.0.1',
    rateLimits: { ...rate('rate-limit'), ...rate('site-rate-limit') },
    maxConnectionsPerClient,
    tls: values['tls-cert'] ? { cert: resolve(values['tls-cert']), key: resolve(values['tls-key']!) } : undefined,
    minimumStatus,
    sync: sync as Sync,
    database,
    retentionDays,
    publicUrl: baseUrl(values['public-url']),
    ingestUrl: baseUrl(values['ingest-url']),
  };
};
