import { dirname, join, resolve } from 'node:path';
import { loadSigningKey } from '../agents/updates';
import { createCollector } from '../app';
import { DEFAULT_MAX_CONNECTIONS_PER_CLIENT, listen, listenUrl } from '../listen';
import { hashPassword, newPassword } from '../core/passwords';
import { DASHBOARD_SITE_KEY, DEMO_SITE_KEY, DEMO_USER_EMAIL } from '../core/records';
import { BEACON_FILE } from './beaconFile';
import { baseUrl, databaseLocation, parseOptions, printableLocation, UsageError, type CliIO } from './args';
import type { Store } from '../store/contract';
import { isPostgresUrl, openStore } from '../store/openStore';
import type { Sync } from '../store/sqlite/openConnection';
import { startRetention } from '../store/startRetention';

/**
 * `serve --demo`: the demo site, allowed from the collector's own origin, and the demo user, who
 * sees every site, with a new password at each start (printed; only its hash is stored). A demo
 * user an earlier run left (one killed before it could remove it) goes first, with its sessions.
 */
const startDemo = async (store: Store, publicUrl: string) => {
  await store.sites.put({ site_key: DEMO_SITE_KEY, name: 'Demo', allowed_origins: [new URL(publicUrl).origin] });
  const password = newPassword();
  await store.users.remove(DEMO_USER_EMAIL);
  await store.users.put({ email: DEMO_USER_EMAIL, password_hash: await hashPassword(password), site_keys: undefined });
  return { email: DEMO_USER_EMAIL, password };
};

const LOG_LEVELS: Record<string, number> = { info: 0, warn: 400, error: 500, silent: Infinity };

const readServeOptions = (args: string[], io: CliIO) => {
  const values = parseOptions(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    'public-url': { type: 'string' },
    demo: { type: 'boolean', default: false },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    'rate-limit': { type: 'string' },
    'site-rate-limit': { type: 'string' },
    'trust-proxy': { type: 'boolean', default: false },
    'max-connections-per-client': { type: 'string' },
    'log-level': { type: 'string' },
    sync: { type: 'string' },
    'ingest-url': { type: 'string' },
    'agent-updates-dir': { type: 'string' },
    'agent-signing-key': { type: 'string' },
    'retention-days': { type: 'string' },
  });
  const port = Number(values.port ?? io.env.SITEBEACON_PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port ${values.port} is not a port`);
  const rate = (flag: 'rate-limit' | 'site-rate-limit') => {
    const value = values[flag];
    if (value === undefined) return {};
    const perSecond = Number(value);
    if (!(perSecond >= 0)) throw new UsageError(`--${flag} ${value} is not a number of requests per second`);
    return { [flag == 'rate-limit' ? 'perIp' : 'perSite']: perSecond };
  };
  if (!!values['tls-cert'] != !!values['tls-key']) throw new UsageError('--tls-cert and --tls-key go together');
  const retentionDays = values['retention-days'] === undefined ? undefined : Number(values['retention-days']);
  if (retentionDays !== undefined && !(retentionDays > 0 && retentionDays <= 36_500)) {
    throw new UsageError(`--retention-days ${values['retention-days']} is not a number of days (more than 0)`);
  }
  // Counted by the socket's address: behind a proxy (--trust-proxy) every connection is the
  // proxy's, so there the cap is off unless given (the proxy limits its clients: README, "Security").
  const maxConnections = values['max-connections-per-client'] ?? io.env.SITEBEACON_MAX_CONNECTIONS_PER_CLIENT;
  const maxConnectionsPerClient = maxConnections === undefined ? (values['trust-proxy'] ? 0 : DEFAULT_MAX_CONNECTIONS_PER_CLIENT) : Number(maxConnections);
  if (!(Number.isInteger(maxConnectionsPerClient) && maxConnectionsPerClient >= 0)) {
    throw new UsageError(`--max-connections-per-client ${maxConnections} is not a number of connections (0 turns the cap off)`);
  }
  const database = databaseLocation(values, io);
  if (values['agent-updates-dir'] && !values['agent-signing-key'] && isPostgresUrl(database)) {
    // The default key lives beside the SQLite file; collectors sharing PostgreSQL must share one key.
    throw new UsageError('with --database-url, --agent-updates-dir needs --agent-signing-key FILE (the same key on every collector)');
  }
  const logLevel = values['log-level'] || io.env.SITEBEACON_LOG_LEVEL || 'info';
  const minimumStatus = LOG_LEVELS[logLevel];
  if (minimumStatus === undefined) throw new UsageError(`--log-level ${logLevel} is not one of ${Object.keys(LOG_LEVELS).join(', ')}`);
  const sync = values.sync || io.env.SITEBEACON_SYNC || 'normal';
  if (sync != 'normal' && sync != 'full') throw new UsageError(`--sync ${sync} is not one of normal, full`);
  // PostgreSQL's durability is the server's own (synchronous_commit): --sync is SQLite's pragma.
  if (values.sync && isPostgresUrl(database)) throw new UsageError('--sync is for SQLite files; with --database-url, PostgreSQL\'s synchronous_commit decides');
  return {
    values,
    port,
    host: values.host || io.env.SITEBEACON_HOST || '127.0.0.1',
    rateLimits: { ...rate('rate-limit'), ...rate('site-rate-limit') },
    maxConnectionsPerClient,
    tls: values['tls-cert'] ? { cert: resolve(values['tls-cert']), key: resolve(values['tls-key']!) } : undefined,
    minimumStatus,
    sync: sync as Sync,
    database,
    retentionDays,
    publicUrl: baseUrl(values['public-url'] || io.env.SITEBEACON_PUBLIC_URL),
    ingestUrl: baseUrl(values['ingest-url'] || io.env.SITEBEACON_INGEST_URL),
  };
};

/**
 * The store, only if it can write: a read-only or unwritable database makes `serve` refuse to start
 * with a message naming the file (issue 11, class 9), instead of running while every report gets 500.
 */
const openWritableStore = async (database: string, sync: Sync, onMigration: (version: number) => void) => {
  let store: Store;
  try {
    store = await openStore(database, { sync, onMigration });
  } catch (error) {
    throw new Error(`cannot open the database ${printableLocation(database)}: ${(error as Error).message}`);
  }
  try {
    await store.checkWritable();
  } catch (error) {
    await store.close().catch(() => {});
    throw new Error(`cannot write the database ${printableLocation(database)} (${(error as Error).message}): check its permissions, its folder's and the disk`);
  }
  return store;
};

/**
 * `sitebeacon serve`: the collector on `--host`:`--port` until SIGINT or SIGTERM (or `io.onStop`). Prints its URL
 * once it listens: as text, or with `--json` as one line `{"url", "public_url", "db", "dashboard"[, "demo", "demo_user"]}`
 * that tools (collector/testing/spawnCollector.ts) read.
 */
export const serve = async (args: string[], io: CliIO) => {
  const { values, port, host, rateLimits, maxConnectionsPerClient, tls, minimumStatus, sync, database, ingestUrl, retentionDays, ...options } =
    readServeOptions(args, io);
  // One line per schema version applied on open: an upgrade says what it did to the database.
  const store = await openWritableStore(database, sync, (version) => {
    if (minimumStatus <= 0) io.err(JSON.stringify({ level: 'info', time: new Date().toISOString(), message: `applied schema version ${version} to ${printableLocation(database)}` }));
  });
  const logError = (error: unknown) => {
    if (minimumStatus <= 500) io.err(JSON.stringify({ level: 'error', time: new Date().toISOString(), error: String((error as Error)?.stack ?? error) }));
  };
  // The demo user, who sees every site and whose password went to a log, exists only while a
  // `serve --demo` runs (README, "The collector"): one left by an earlier run is removed, with its
  // sessions, before anything is answered. A --demo run removes it again when it stops.
  if (!values.demo && (await store.users.remove(DEMO_USER_EMAIL)) && minimumStatus <= 0) {
    io.err(JSON.stringify({ level: 'info', time: new Date().toISOString(), message: `removed the demo user ${DEMO_USER_EMAIL} an earlier serve --demo left` }));
  }
  // A failed sweep is logged and tried again at the next interval; ingest is not affected.
  const retention = retentionDays ? startRetention(store, { days: retentionDays, onError: logError }) : undefined;
  let publicUrl = options.publicUrl ?? '';
  const app = createCollector({
    store,
    beaconFile: BEACON_FILE,
    links: { appUrl: () => publicUrl, ingestUrl: () => ingestUrl },
    demo: values.demo ? { siteKey: DEMO_SITE_KEY } : undefined,
    agentUpdates: values['agent-updates-dir']
      ? {
          dir: resolve(values['agent-updates-dir']),
          privateKey: loadSigningKey(resolve(values['agent-signing-key'] || join(dirname(database), 'agent-signing-key.pem'))),
        }
      : undefined,
    rateLimits,
    trustProxy: values['trust-proxy'],
    // One JSON line per request on stderr; stdout stays for what the command prints.
    // Reports refused for a foreign document are answered 2xx but logged as warnings (issue 12).
    // Below the level nothing is made at all; `silent` has no request log (issue 18).
    logRequest:
      minimumStatus == Infinity
        ? undefined
        : (entry) => {
            const level = entry.status >= 500 ? 'error' : entry.status >= 400 || entry.foreign_reports ? 'warn' : 'info';
            if (Math.max(entry.status, entry.foreign_reports ? 400 : 0) >= minimumStatus) io.err(JSON.stringify({ level, ...entry }));
          },
    logRequestMinimumStatus: minimumStatus,
    logError,
  });
  // The collector's own sites (the dashboard's, whose CSP reports core/dashboardPolicy.ts files
  // there, and the demo's) need its URL. Known before it listens (a --public-url, or a --port):
  // set up first, so that nothing is answered before they exist, and what it prints is printed in
  // the same turn as it starts listening. With --port 0, only once it listens.
  const setUp = async (appUrl: string) => {
    await store.sites.put({ site_key: DASHBOARD_SITE_KEY, name: 'sitebeacon dashboard', allowed_origins: [new URL(appUrl).origin] });
    return values.demo ? await startDemo(store, appUrl) : undefined;
  };
  publicUrl ||= port ? listenUrl({ host, port, tls }) : '';
  let demo = publicUrl ? await setUp(publicUrl) : undefined;
  const { server, url } = await listen(app, { port, host, tls, maxConnectionsPerClient });
  if (!publicUrl) {
    publicUrl = url;
    demo = await setUp(publicUrl);
  }
  if (values.json) {
    io.out(JSON.stringify({ url, public_url: publicUrl, db: printableLocation(database), dashboard: `${publicUrl}/`, ...(demo ? { demo: `${publicUrl}/demo`, demo_user: demo } : {}) }));
  } else {
    io.out(`sitebeacon collector listening on ${url}`);
    io.out(`data stored in ${printableLocation(database)}`);
    io.out(`dashboard: ${publicUrl}/`);
    if (demo) {
      io.out(`demo page: ${publicUrl}/demo (site key "${DEMO_SITE_KEY}")`);
      io.out(`demo sign-in: ${demo.email} / ${demo.password} (a new password at every start)`);
    }
  }
  let closing = false;
  // Graceful shutdown: stop accepting, let the requests in flight finish (their writes commit
  // before they are answered), commit what is queued, close the file, exit.
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    const forceTimer = setTimeout(() => server.close(true), 10_000);
    forceTimer.unref();
    // Node closes the connections idle when close() is called; a keep-alive connection whose
    // request finishes later would hold the process for its whole keep-alive timeout.
    const httpServer = server.node?.server as { closeIdleConnections?: () => void } | undefined;
    const closeIdle = setInterval(() => httpServer?.closeIdleConnections?.(), 50);
    await server.close();
    clearInterval(closeIdle);
    await retention?.stop();
    if (values.demo) await store.users.remove(DEMO_USER_EMAIL).catch(logError);
    await store.close();
    process.exit(0);
  };
  if (io.onStop) io.onStop(shutdown);
  else for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, shutdown);
};
