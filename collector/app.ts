import { H3 } from 'h3';
import { toErrorResponse } from './http/apiError';
import { clientIp } from './http/clientIp';
import { createRateCheck } from './http/rateCheck';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './http/rateLimiter';
import { beaconScriptRoutes } from './routes/beaconScript';
import { connectivityRoutes } from './routes/connectivity';
import { cspReportRoutes } from './routes/cspReports';
import { demoRoutes } from './routes/demo';
import { errorReportRoutes } from './routes/errorReports';
import { performanceSessionRoutes } from './routes/performanceSessions';
import { readApiRoutes } from './routes/readApi';
import { cspProjectRoutes } from './routes/cspProjects';
import { openApiRoutes } from './routes/openapi';
import { serverAgentRoutes, type AgentUpdates } from './routes/serverAgents';
import { verifyApiKeyRoutes } from './routes/verifyApiKey';
import { wordpressRoutes } from './routes/wordpress';
import type { Links } from './links';
import type { Store } from './store/store';

/** Options of `createCollector()`. */
export interface CollectorOptions {
  store: Store;
  /** The built IIFE served at `/beacon.js`. */
  beaconFile: string;
  /** Where this collector is reached, for the URLs it hands out (WordPress, agents, CSP headers). */
  links: Links;
  /** Serves the demo page at `/` for this site (`sitebeacon serve --demo`). */
  demo?: { siteKey: string };
  /** Publishes signed Linux agent builds (`serve --agent-updates-dir`). */
  agentUpdates?: AgentUpdates | undefined;
  /** Requests per second per client IP and per site; 0 turns one off. */
  rateLimits?: Partial<RateLimits>;
  /** Take the client IP from `X-Forwarded-For` (only behind a proxy you run). */
  trustProxy?: boolean;
  /** Receives the detail of unexpected errors, which responses never carry. */
  logError?: (error: unknown) => void;
  /** Receives one entry per request, after its response (structured request log). */
  logRequest?: (entry: RequestLogEntry) => void;
}

/** One line of the request log. */
export interface RequestLogEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  ip: string;
}

/**
 * Creates the collector: an h3 app serving every endpoint under `/api`, `/beacon.js`, and the
 * demo page when asked. It holds no global state: tests start as many as they like.
 *
 * @example
 * const app = createCollector({ store: createSqliteStore({ file: ':memory:' }), beaconFile: 'dist/beacon.min.js' });
 * const res = await app.fetch(new Request('http://localhost/api/test-connectivity'));
 */
export const createCollector = ({
  store,
  beaconFile,
  links,
  demo,
  agentUpdates,
  rateLimits,
  trustProxy = false,
  logError = (error) => console.error('sitebeacon: internal error', error),
  logRequest,
}: CollectorOptions): H3 => {
  const started = new WeakMap<object, number>();
  const app = new H3({
    silent: true,
    onRequest: logRequest && ((event) => void started.set(event, performance.now())),
    onResponse:
      logRequest &&
      ((response, event) =>
        logRequest({
          time: new Date().toISOString(),
          method: event.req.method,
          path: event.url.pathname,
          status: response.status,
          ms: Math.round((performance.now() - (started.get(event) ?? performance.now())) * 100) / 100,
          ip: clientIp(event, trustProxy),
        })),
    onError: (error, event) => toErrorResponse(error, event, logError),
  });
  const ingest = { store, checkRate: createRateCheck({ ...DEFAULT_RATE_LIMITS, ...rateLimits }, trustProxy) };
  connectivityRoutes(app);
  errorReportRoutes(app, ingest);
  cspReportRoutes(app, ingest);
  performanceSessionRoutes(app, ingest);
  readApiRoutes(app, { store });
  verifyApiKeyRoutes(app, { store });
  wordpressRoutes(app, { store, links });
  cspProjectRoutes(app, { store, links });
  serverAgentRoutes(app, { store, links, updates: agentUpdates });
  openApiRoutes(app, { links });
  beaconScriptRoutes(app, { beaconFile });
  if (demo) demoRoutes(app, { siteKey: demo.siteKey, publicUrl: links.appUrl });
  return app;
};
