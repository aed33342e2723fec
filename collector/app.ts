import { H3 } from 'h3';
import { toErrorResponse } from './http/apiError';
import { beaconScriptRoutes } from './routes/beaconScript';
import { connectivityRoutes } from './routes/connectivity';
import { cspReportRoutes } from './routes/cspReports';
import { demoRoutes } from './routes/demo';
import { errorReportRoutes } from './routes/errorReports';
import { performanceSessionRoutes } from './routes/performanceSessions';
import type { Store } from './store/store';

/** Options of `createCollector()`. */
export interface CollectorOptions {
  store: Store;
  /** The built IIFE served at `/beacon.js`. */
  beaconFile: string;
  /** Serves the demo page at `/` for this site (`sitebeacon serve --demo`). */
  demo?: { siteKey: string; publicUrl: () => string };
  /** Receives the detail of unexpected errors, which responses never carry. */
  logError?: (error: unknown) => void;
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
  demo,
  logError = (error) => console.error('sitebeacon: internal error', error),
}: CollectorOptions): H3 => {
  const app = new H3({
    silent: true,
    onError: (error, event) => toErrorResponse(error, event, logError),
  });
  connectivityRoutes(app);
  errorReportRoutes(app, { store });
  cspReportRoutes(app, { store });
  performanceSessionRoutes(app, { store });
  beaconScriptRoutes(app, { beaconFile });
  if (demo) demoRoutes(app, demo);
  return app;
};
