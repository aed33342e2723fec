import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { AddressInfo } from 'node:net';
import { serve } from 'h3';
import { createCollector } from './app';
import { runCheck } from './check/runCheck';
import { loadSigningKey } from './agents/updates';
import { hashApiKey, newApiKey } from './http/apiKeys';
import { ActionSchema } from './routes/wordpress';
import * as v from 'valibot';
import { describeIssues } from './schemas/describeIssues';
import { createSqliteStore } from './store/sqlite';
import type { Store } from './store/store';

export const USAGE = `Usage: sitebeacon <command> [options]

Commands:
  serve [--port 8787] [--host 127.0.0.1] [--public-url URL] [--demo]
        [--tls-cert FILE --tls-key FILE] [--rate-limit N] [--site-rate-limit N] [--trust-proxy]
        [--log-level info|warn|error|silent] [--ingest-url URL]
        [--agent-updates-dir DIR [--agent-signing-key FILE]]
                        run the collector (--demo also serves a demo page at /);
                        rate limits are requests per second per client IP (default 20) and
                        per site (default 500), 0 turns one off
  site add --origin URL [--origin URL...] [--name NAME]
                        create a site; prints its key and script tag
  action add --site SITE_KEY --type TYPE [--payload JSON]
                        queue an action for a WordPress site's next check-in
  key create [--site SITE_KEY] [--name NAME]
                        create an API key (for one site, or the whole installation);
                        it is printed once and stored only as a hash
  export --site SITE_KEY --kind errors|csp|performance [--since ISO]
                        print stored records as NDJSON
  check URL [--site SITE_KEY] [--page PAGE_URL] [--connect-timeout S] [--timeout S] [--ca FILE]
                        diagnose, from this machine, why reports may not arrive (see check --help)

Every command takes --db FILE (default ./data/sitebeacon.db, env SITEBEACON_DB) and --json.
Env: SITEBEACON_PORT, SITEBEACON_HOST, SITEBEACON_PUBLIC_URL, SITEBEACON_INGEST_URL, SITEBEACON_LOG_LEVEL.
`;

/** Where the CLI writes; tests pass their own. */
export interface CliIO {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Record<string, string | undefined>;
}

class UsageError extends Error {}

const common = {
  db: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options'];

const parse = <O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) => {
  try {
    return parseArgs({ args, options: { ...common, ...options }, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
};

const dbFile = (values: { db?: string | undefined }, io: CliIO) =>
  resolve(values.db || io.env.SITEBEACON_DB || './data/sitebeacon.db');

const toOrigin = (value: string) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--origin ${value} is not a URL; write it like https://shop.example`);
  }
  if (url.protocol != 'http:' && url.protocol != 'https:') throw new UsageError(`--origin ${value} is not http(s)`);
  return url.origin;
};

const snippet = (publicUrl: string, siteKey: string) =>
  `<script src="${publicUrl}/beacon.js" data-site-key="${siteKey}" data-ingest-origin="${publicUrl}" async></script>`;

const withStore = async <T>(file: string, work: (store: Store) => Promise<T>) => {
  const store = createSqliteStore({ file });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
};

const siteAdd = async (args: string[], io: CliIO) => {
  const values = parse(args, { origin: { type: 'string', multiple: true }, name: { type: 'string' }, 'public-url': { type: 'string' } });
  const origins = (values.origin || []).map(toOrigin);
  if (!origins.length) throw new UsageError('site add needs at least one --origin URL');
  const site = await withStore(dbFile(values, io), (store) => store.addSite({ name: values.name, allowedOrigins: origins }));
  const publicUrl = (values['public-url'] || io.env.SITEBEACON_PUBLIC_URL || 'http://127.0.0.1:8787').replace(/\/+$/, '');
  const tag = snippet(publicUrl, site.siteKey);
  if (values.json) {
    io.out(JSON.stringify({ site_key: site.siteKey, name: site.name, allowed_origins: site.allowedOrigins, snippet: tag }));
  } else {
    io.out(`Created site "${site.name}"\n  site key:        ${site.siteKey}\n  allowed origins: ${origins.join(', ')}\n\nPaste into every page:\n  ${tag}`);
  }
};

const keyCreate = async (args: string[], io: CliIO) => {
  const values = parse(args, { site: { type: 'string' }, name: { type: 'string' } });
  const apiKey = newApiKey();
  const created = await withStore(dbFile(values, io), async (store) => {
    if (values.site && !(await store.getSite(values.site))) throw new Error(`no site has the key "${values.site}"`);
    return store.createApiKey({ keyHash: hashApiKey(apiKey), name: values.name || (values.site ? `site ${values.site}` : 'installation'), siteKey: values.site });
  });
  if (values.json) {
    io.out(JSON.stringify({ api_key: apiKey, name: created.name, ...(created.siteKey ? { site_key: created.siteKey } : {}) }));
  } else {
    io.out(`Created API key "${created.name}" for ${created.siteKey ? `site ${created.siteKey}` : 'the whole installation'}:\n\n  ${apiKey}\n\nIt is shown only this once; the collector keeps only its hash.`);
  }
};

const actionAdd = async (args: string[], io: CliIO) => {
  const values = parse(args, { site: { type: 'string' }, type: { type: 'string' }, payload: { type: 'string' } });
  if (!values.site) throw new UsageError('action add needs --site SITE_KEY');
  let payload: unknown;
  try {
    payload = values.payload === undefined ? undefined : JSON.parse(values.payload);
  } catch {
    throw new UsageError('--payload is not JSON');
  }
  const parsed = v.safeParse(ActionSchema, { type: values.type, payload });
  if (!parsed.success) throw new UsageError(describeIssues(parsed.issues));
  const action = await withStore(dbFile(values, io), async (store) => {
    if (!(await store.getSite(values.site!))) throw new Error(`no site has the key "${values.site}"`);
    return store.addAction(values.site!, parsed.output);
  });
  io.out(values.json ? JSON.stringify(action) : `Queued action ${action.id} (${action.type}) for site ${action.site_key}`);
};

const KINDS = ['errors', 'csp', 'performance'] as const;

const exportRecords = async (args: string[], io: CliIO) => {
  const values = parse(args, { site: { type: 'string' }, kind: { type: 'string' }, since: { type: 'string' } });
  if (!values.site) throw new UsageError('export needs --site SITE_KEY');
  const kind = values.kind as (typeof KINDS)[number];
  if (!KINDS.includes(kind)) throw new UsageError(`export needs --kind ${KINDS.join('|')}`);
  if (values.since && Number.isNaN(Date.parse(values.since))) throw new UsageError(`--since ${values.since} is not an ISO date`);
  const list = {
    errors: (store: Store) => store.listErrorReports.bind(store),
    csp: (store: Store) => store.listCspReports.bind(store),
    performance: (store: Store) => store.listPerformanceSessions.bind(store),
  }[kind];
  await withStore(dbFile(values, io), async (store) => {
    if (!(await store.getSite(values.site!))) throw new Error(`no site has the key "${values.site}"`);
    const listPage = list(store);
    for (let afterId = 0; ; ) {
      const page: Array<{ id: number }> = await listPage(values.site!, { since: values.since, afterId, limit: 1000 });
      for (const record of page) io.out(JSON.stringify(record));
      if (page.length < 1000) break;
      afterId = page[page.length - 1]!.id;
    }
  });
};

const serveCollector = async (args: string[], io: CliIO) => {
  const values = parse(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    'public-url': { type: 'string' },
    demo: { type: 'boolean', default: false },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    'rate-limit': { type: 'string' },
    'site-rate-limit': { type: 'string' },
    'trust-proxy': { type: 'boolean', default: false },
    'log-level': { type: 'string' },
    'ingest-url': { type: 'string' },
    'agent-updates-dir': { type: 'string' },
    'agent-signing-key': { type: 'string' },
  });
  const port = Number(values.port ?? io.env.SITEBEACON_PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port ${values.port} is not a port`);
  const host = values.host || io.env.SITEBEACON_HOST || '127.0.0.1';
  const rate = (flag: 'rate-limit' | 'site-rate-limit') => {
    const value = values[flag];
    if (value === undefined) return undefined;
    const perSecond = Number(value);
    if (!(perSecond >= 0)) throw new UsageError(`--${flag} ${value} is not a number of requests per second`);
    return perSecond;
  };
  const rateLimits = { perIp: rate('rate-limit'), perSite: rate('site-rate-limit') };
  if (!!values['tls-cert'] != !!values['tls-key']) throw new UsageError('--tls-cert and --tls-key go together');
  const tls = values['tls-cert'] ? { cert: resolve(values['tls-cert']), key: resolve(values['tls-key']!) } : undefined;
  const logLevel = values['log-level'] || io.env.SITEBEACON_LOG_LEVEL || 'info';
  const minimumStatus = { info: 0, warn: 400, error: 500, silent: Infinity }[logLevel];
  if (minimumStatus === undefined) throw new UsageError(`--log-level ${logLevel} is not one of info, warn, error, silent`);
  const file = dbFile(values, io);
  const store = createSqliteStore({ file });
  let publicUrl = (values['public-url'] || io.env.SITEBEACON_PUBLIC_URL || '').replace(/\/+$/, '');
  const ingestUrl = (values['ingest-url'] || io.env.SITEBEACON_INGEST_URL || '').replace(/\/+$/, '') || undefined;
  const app = createCollector({
    store,
    beaconFile: fileURLToPath(new URL('./beacon.min.js', import.meta.url)),
    links: { appUrl: () => publicUrl, ingestUrl: () => ingestUrl },
    demo: values.demo ? { siteKey: 'demo' } : undefined,
    agentUpdates: values['agent-updates-dir']
      ? {
          dir: resolve(values['agent-updates-dir']),
          privateKey: loadSigningKey(resolve(values['agent-signing-key'] || join(dirname(file), 'agent-signing-key.pem'))),
        }
      : undefined,
    rateLimits: Object.fromEntries(Object.entries(rateLimits).filter(([, limit]) => limit !== undefined)),
    trustProxy: values['trust-proxy'],
    // One JSON line per request on stderr; stdout stays for what the command prints.
    logRequest: (entry) => {
      if (entry.status >= minimumStatus) io.err(JSON.stringify({ level: entry.status >= 500 ? 'error' : entry.status >= 400 ? 'warn' : 'info', ...entry }));
    },
    logError: (error) => {
      if (minimumStatus <= 500) io.err(JSON.stringify({ level: 'error', time: new Date().toISOString(), error: String((error as Error)?.stack ?? error) }));
    },
  });
  const server = serve(app, {
    port,
    hostname: host,
    silent: true,
    gracefulShutdown: false,
    tls,
    // HTTPS as HTTP/1.1: srvx would serve HTTP/2, whose sessions a browser keeps open and Node's
    // server.close() then waits on for ever; HTTP/1.1 connections close when idle (see shutdown).
    // A client gets 10 s to send its headers and its whole request: slow or stalled clients
    // (slowloris) are cut off instead of holding connections (Node's defaults are 60 s and 300 s).
    // Node checks those timeouts every connectionsCheckingInterval (30 s by default): every second here.
    node: { http2: false, headersTimeout: 10_000, requestTimeout: 10_000, connectionsCheckingInterval: 1_000 },
  });
  await server.ready();
  const address = server.node?.server?.address() as AddressInfo;
  const url = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  publicUrl ||= url;
  if (values.demo) {
    await store.putSite({ siteKey: 'demo', name: 'Demo', allowedOrigins: [new URL(publicUrl).origin] });
  }
  if (values.json) {
    io.out(JSON.stringify({ url, public_url: publicUrl, db: file, ...(values.demo ? { demo: `${publicUrl}/` } : {}) }));
  } else {
    io.out(`sitebeacon collector listening on ${url}`);
    io.out(`data stored in ${file}`);
    if (values.demo) io.out(`demo page: ${publicUrl}/ (site key "demo")`);
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
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
};

/**
 * Runs one `sitebeacon` command. Resolves to the exit code.
 *
 * @example
 * await main(['site', 'add', '--origin', 'https://shop.example', '--json']);
 */
export const main = async (
  argv: string[],
  io: CliIO = { out: (line) => console.log(line), err: (line) => console.error(line), env: process.env },
): Promise<number> => {
  const [command, ...rest] = argv;
  try {
    if (command == 'serve') await serveCollector(rest, io);
    else if (command == 'site' && rest[0] == 'add') await siteAdd(rest.slice(1), io);
    else if (command == 'key' && rest[0] == 'create') await keyCreate(rest.slice(1), io);
    else if (command == 'action' && rest[0] == 'add') await actionAdd(rest.slice(1), io);
    else if (command == 'export') await exportRecords(rest, io);
    else if (command == 'check') return await runCheck({ argv: rest, env: io.env }, io);
    else if (!command || command == 'help' || command == '--help' || command == '-h') io.out(USAGE);
    else throw new UsageError(`unknown command "${argv.join(' ')}"`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`sitebeacon: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.err(`sitebeacon: ${(error as Error).message}`);
    return 1;
  }
};
