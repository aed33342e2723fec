import { dirname, join } from 'node:path';
import { H3, type H3Event } from 'h3';
import type { AgentUpdates } from './agents/updates';
import type { Mailer } from './alerts/sendEmail';
import { sendTestAlert } from './alerts/sendTestAlert';
import type { SendWebhookOptions } from './alerts/sendWebhook';
import { refusedWebhookTarget } from './alerts/webhookTarget';
import { setupUrls, type Links } from './core/setupUrls';
import { toErrorResponse } from './http/apiError';
import { clientIp } from './http/clientIp';
import { forwardedUrl } from './http/forwardedUrl';
import { createMetrics, type Metrics } from './http/metrics';
import { mountRoutes } from './http/mountRoutes';
import { createRateCheck } from './http/rateCheck';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './http/rateLimiter';
import { createVisitorOf } from './http/visitorOf';
import type { Route } from './http/route';
import { alertRoutes } from './routes/alerts';
import { beaconScriptRoutes, scriptFiles } from './routes/beaconScript';
import { connectivityRoutes } from './routes/connectivity';
import { cspProjectRoutes } from './routes/cspProjects';
import { cspReportRoutes } from './routes/cspReports';
import { dashboardRoutes } from './routes/dashboard';
import { demoRoutes } from './routes/demo';
import { errorReportRoutes } from './routes/errorReports';
import { healthRoutes } from './routes/health';
import { metricsRoutes } from './routes/metrics';
import { openApiRoutes } from './routes/openapi';
import { performanceSessionRoutes } from './routes/performanceSessions';
import { insightRoutes } from './routes/insights';
import { issueRoutes } from './routes/issues';
import { sourceMapRoutes } from './routes/sourceMaps';
import { readApiRoutes } from './routes/readApi';
import { serverAgentRoutes } from './routes/serverAgents';
import { sessionRoutes } from './routes/session';
import { siteSetupRoutes } from './routes/siteSetup';
import { verifyApiKeyRoutes } from './routes/verifyApiKey';
import { wordpressRoutes } from './routes/wordpress';
import type { Store } from './store/contract';

/** Options of `createCollector()`. */
export interface CollectorOptions {
  store: Store;
  /** The built IIFE served at `/beacon.js`. */
  beaconFile: string;
  /** Where this collector is reached, for the URLs it hands out (WordPress, agents, CSP headers, snippets). */
  links: Links;
  /** The built dashboard (index.html and assets/); default: `dashboard/` beside `beaconFile`. */
  dashboardDir?: string | undefined;
  /** Serves the demo page for this site (`sitebeacon serve --demo`). */
  demo?: { siteKey: string } | undefined;
  /** Publishes signed Linux agent builds (`serve --agent-updates-dir`). */
  agentUpdates?: AgentUpdates | undefined;
  /** Requests per second per client IP and per site; 0 turns one off. */
  rateLimits?: Partial<RateLimits> | undefined;
  /**
   * Behind a proxy you run: the client IP from `X-Forwarded-For`, and the URL the client addressed
   * (its origin for the CSRF check, https for the cookie's `Secure`) from `X-Forwarded-Proto` and
   * `X-Forwarded-Host` (http/forwardedUrl.ts). Without it those headers are ignored.
   */
  trustProxy?: boolean | undefined;
  /**
   * How alerts are sent, for a rule's test and the check of a webhook's target (`serve --smtp-url`,
   * `--mail-from`, `--allow-private-webhooks`; docs/alerts.md): without a mailer a mail test fails,
   * saying so; `webhooks.ca` is a test's own CA for a receiver's certificate.
   */
  alerts?: { mailer?: Mailer | undefined; allowPrivateWebhooks?: boolean | undefined; webhooks?: Pick<SendWebhookOptions, 'ca' | 'timeoutMs'> | undefined } | undefined;
  /** Receives the detail of unexpected errors, which responses never carry. */
  logError?: ((error: unknown) => void) | undefined;
  /** Receives one entry per request, after its response (structured request log). */
  logRequest?: ((entry: RequestLogEntry) => void) | undefined;
  /**
   * Only responses with at least this status reach `logRequest`, and those with `foreign_reports`
   * (`serve --log-level`); the entries of the others are not even made (docs/performance.md). Default 0: all.
   */
  logRequestMinimumStatus?: number | undefined;
  /**
   * Checks every answer against the schema its route declares (http/checkAnswer.ts), answering 500
   * where one differs: the test collector's setting (testing/testCollector.ts), off in production.
   */
  checkAnswers?: boolean | undefined;
}

/** One line of the request log. */
export interface RequestLogEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  ip: string;
  /**
   * Browser reports sent with `Origin: null` for a document not of the site's allowed origins:
   * answered 2xx (so the browser does not retry) but not stored (routes/cspReports.ts; docs/csp-reports.md, "`Origin: null`").
   */
  foreign_reports?: number;
}

/** The alerts API's sending (routes/alerts.ts): alerts/ with this collector's mail, webhook and link settings. */
const alertSending = ({ store, links, alerts = {} }: CollectorOptions) => {
  const allowPrivate = alerts.allowPrivateWebhooks ?? false;
  return {
    refusedTarget: (url: string) => refusedWebhookTarget(url, { allowPrivate }),
    sendTest: (site: { key: string; name: string }, rule: Parameters<typeof sendTestAlert>[2]) =>
      sendTestAlert(store, site, rule, { mailer: alerts.mailer, publicUrl: links.appUrl, webhooks: { ...alerts.webhooks, allowPrivate } }),
  };
};

/**
 * The route table: every endpoint the collector serves, each declared once (http/route.ts).
 * The app mounts it and the OpenAPI document is generated from it. `metrics` are what the routes
 * count and `GET /metrics` answers (http/metrics.ts): the app's own, one per app.
 */
export const collectorRoutes = (
  options: CollectorOptions,
  metrics: Metrics = createMetrics({ checkDatabase: () => options.store.checkWritable() }),
): Route[] => {
  const { store, links, beaconFile } = options;
  const scripts = scriptFiles();
  const clientOf = (event: H3Event) => clientIp(event, options.trustProxy ?? false);
  // One day's salt per route table, kept in memory (docs/visitors.md).
  const visitorOf = createVisitorOf({ salts: store.visitorSalts, clientOf });
  const routes: Route[] = [
    ...connectivityRoutes(),
    ...healthRoutes({ store }),
    ...metricsRoutes({ metrics }),
    ...errorReportRoutes({ store, metrics, visitorOf }),
    ...cspReportRoutes({ store, metrics, clientOf, visitorOf }),
    ...performanceSessionRoutes({ store, metrics, visitorOf }),
    ...beaconScriptRoutes({ beaconFile, scripts }),
    ...readApiRoutes({ store }),
    ...insightRoutes({ store }),
    ...issueRoutes({ store }),
    ...alertRoutes({ store, sending: alertSending(options) }),
    ...sourceMapRoutes({ store }),
    ...siteSetupRoutes({ store, links, beaconFile, scripts }),
    ...sessionRoutes({ store, links, trustProxy: options.trustProxy ?? false }),
    ...verifyApiKeyRoutes({ store }),
    ...wordpressRoutes({ store, links }),
    ...cspProjectRoutes({ store, links }),
    ...serverAgentRoutes({ store, links, updates: options.agentUpdates }),
    ...openApiRoutes({ links, routes: () => routes }),
    ...dashboardRoutes({ store, links, dir: options.dashboardDir ?? join(dirname(options.beaconFile), 'dashboard') }),
    ...(options.demo ? demoRoutes({ siteKey: options.demo.siteKey, links }) : []),
  ];
  return routes;
};

/**
 * Creates the collector: an h3 app serving every endpoint of the route table. It holds no global
 * state: tests start as many as they like.
 *
 * @example
 * const app = createCollector({ store: await openStore(':memory:'), beaconFile: 'dist/beacon.min.js', links: { appUrl: () => 'http://127.0.0.1:8787' } });
 * const res = await app.fetch(new Request('http://localhost/api/test-connectivity'));
 */
export const createCollector = (options: CollectorOptions): H3 => {
  const { store, trustProxy = false, logRequest, logRequestMinimumStatus = 0 } = options;
  const logError = options.logError ?? ((error: unknown) => console.error('sitebeacon: internal error', error));
  const started = new WeakMap<object, number>();
  // A hook, not a middleware: h3 keeps its path without middleware (H3Core "~request").
  const onRequest = (event: H3Event) => {
    if (trustProxy) event.url = forwardedUrl(event);
    if (logRequest) started.set(event, performance.now());
  };
  const app = new H3({
    silent: true,
    onRequest: trustProxy || logRequest ? onRequest : undefined,
    onResponse:
      logRequest &&
      ((response, event) => {
        const foreign = event.context.foreign_reports;
        if (response.status < logRequestMinimumStatus && typeof foreign != 'number') return;
        logRequest({
          time: new Date().toISOString(),
          method: event.req.method,
          path: event.url.pathname,
          status: response.status,
          ms: Math.round((performance.now() - (started.get(event) ?? performance.now())) * 100) / 100,
          ip: clientIp(event, trustProxy),
          ...(typeof foreign == 'number' ? { foreign_reports: foreign } : {}),
        });
      }),
    onError: (error, event) => toErrorResponse(error, event, logError),
  });
  const checkRate = createRateCheck({ ...DEFAULT_RATE_LIMITS, ...options.rateLimits }, trustProxy);
  // The database probe of GET /metrics is the health check's (routes/health.ts).
  const metrics = createMetrics({ checkDatabase: () => store.checkWritable() });
  mountRoutes(app, collectorRoutes(options, metrics), {
    store,
    checkRate,
    appUrl: () => setupUrls(options.links).app_url,
    metrics,
    checkAnswers: options.checkAnswers,
  });
  return app;
};
