import { dirname, join, resolve } from 'node:path';
import { loadSigningKey } from '../agents/updates';
import { createCollector } from '../app';
import { listen, listenUrl } from '../listen';
import { hashPassword, newPassword } from '../core/passwords';
import { DASHBOARD_SITE_KEY, DEMO_SITE_KEY, DEMO_USER_EMAIL } from '../core/records';
import { BEACON_FILE } from './beaconFile';
import { printableLocation } from './args';
import { defineCommand } from './defineCommand';
import { readServeOptions } from './readServeOptions';
import { SERVE_FLAGS } from './serveFlags';
import type { Store } from '../store/contract';
import { openStore } from '../store/openStore';
import type { Sync } from '../store/sqlite/openConnection';
import { startRetention } from '../store/startRetention';
import { createMailer } from '../alerts/sendEmail';
import { startAlertDelivery } from '../alerts/startAlertDelivery';
import { startAlertEvaluation } from '../alerts/startAlertEvaluation';
import { startOutboxRetention } from '../alerts/startOutboxRetention';
import { startSaltPruning } from '../store/startSaltPruning';

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

/**
 * The store, only if it can write: a read-only or unwritable database makes `serve` refuse to start
 * with a message naming the file, instead of running while every report gets 500.
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
export const serve = defineCommand({
  name: ['serve'],
  summary: 'run the collector and its dashboard at / (serve --help: every setting and its SITEBEACON_* variable)',
  help: 'runs the collector and its dashboard at `/`, until SIGINT or SIGTERM, which stop it gracefully (the requests under way finish, what was acknowledged is committed)',
  flags: SERVE_FLAGS,
  run: async (parsed, io) => {
    const { values } = parsed;
    const { port, host, rateLimits, maxConnectionsPerClient, tls, minimumStatus, sync, database, ingestUrl, retentionDays, mail, allowPrivateWebhooks, ...options } =
      readServeOptions(parsed, io);
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
    // Visitor salts older than yesterday go even when no report arrives (docs/visitors.md, "The salt").
    const saltPruning = startSaltPruning(store.visitorSalts, { onError: logError });
    let publicUrl = options.publicUrl ?? '';
    // Spike and vital_poor rules, every minute; the outbox's ended deliveries kept 30 days (docs/alerts.md).
    const alertEvaluation = startAlertEvaluation(store, { onError: logError });
    const outboxRetention = startOutboxRetention(store, { onError: logError });
    // Alerts the ingest transactions wrote to the outbox, sent within a second or two (docs/alerts.md, "Delivery").
    // One mailer for the outbox's delivery and the rules' tests (the alerts API).
    const mailer = mail && createMailer(mail.smtpUrl, mail.from);
    const alertDelivery = startAlertDelivery(store, {
      mailer,
      publicUrl: () => publicUrl,
      webhooks: { allowPrivate: allowPrivateWebhooks },
      onError: logError,
    });
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
      alerts: { mailer, allowPrivateWebhooks },
      trustProxy: values['trust-proxy'],
      // One JSON line per request on stderr; stdout stays for what the command prints.
      // Reports refused for a foreign document are answered 2xx but logged as warnings (README,
      // "The collector": --log-level). Below the level nothing is made at all; `silent` has no
      // request log, which costs nothing per request.
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
      await saltPruning.stop();
      await alertEvaluation.stop();
      await outboxRetention.stop();
      await alertDelivery.stop();
      if (values.demo) await store.users.remove(DEMO_USER_EMAIL).catch(logError);
      await store.close();
      process.exit(0);
    };
    if (io.onStop) io.onStop(shutdown);
    else for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, shutdown);
  },
});
