import { HTTPError, type H3Event } from 'h3';
import { UnknownSiteError } from '../store/unknownSiteError';
import type { MetricFamily, Sample } from './prometheusText';
import type { Route } from './route';

/** What a route's answers count towards (http/route.ts `metric`). */
export type CountedRoute = NonNullable<Route['metric']>;

type ReportKind = Exclude<CountedRoute, 'sign_in'>;

const REPORT_KINDS: ReportKind[] = ['error', 'csp', 'performance'];

/**
 * Upper bounds, in seconds, of the store write latency histogram: a group commit on a local disk
 * takes about a millisecond, a PostgreSQL round trip a few; the last bounds catch a stalled disk or
 * a request waiting for a connection (a PostgreSQL collector waits at most 5 s for one).
 */
export const COMMIT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

/** The status a thrown error is answered with (http/apiError.ts answers what h3 calls unhandled 500). */
const statusOf = (error: unknown) => (error instanceof HTTPError && !error.unhandled ? error.status : 500);

/** The count of a 202 body (routes/ingest.ts `accepted`), else 0. */
const acceptedCount = (body: unknown) => {
  const accepted = (body as { accepted?: unknown } | null | undefined)?.accepted;
  return typeof accepted == 'number' ? accepted : 0;
};

/** One collector's counters, for `GET /metrics` (routes/metrics.ts). */
export interface Metrics {
  /** Counts one answer of a counted route: its status, and for a report submission the reports it accepted. */
  countAnswer(metric: CountedRoute, status: number, body?: unknown): void;
  /**
   * Runs one store write of a route and measures it: in flight meanwhile, its latency once it
   * resolves, a failure when it rejects (except UnknownSiteError, answered 404: the database answered).
   */
  storeWrite<T>(write: () => Promise<T>): Promise<T>;
  /** The metric families now, for renderPrometheusText (http/prometheusText.ts). */
  collect(): Promise<MetricFamily[]>;
}

/**
 * Creates one collector's metrics: plain counters in this closure, no global registry, so that
 * every collector a process starts (tests start many) counts its own. `checkDatabase` is what
 * `GET /api/health` runs (store.checkWritable); `collect` runs it only when no store write has
 * finished since the last collect, so a scrape probes the database no more than one health check
 * does, and not at all while reports are being written.
 *
 * @example
 * const metrics = createMetrics({ checkDatabase: () => store.checkWritable() });
 * const count = await metrics.storeWrite(() => store.errors.insert(siteKey, reports, context));
 * renderPrometheusText(await metrics.collect());
 */
export const createMetrics = ({ checkDatabase }: { checkDatabase: () => Promise<unknown> }): Metrics => {
  // The process started this long ago, whichever thread the collector runs on (cli/serveOnThread.ts).
  const processStart = Date.now() / 1000 - process.uptime();
  const answers = new Map<string, number>();
  const accepted = new Map<ReportKind, number>(REPORT_KINDS.map((kind) => [kind, 0]));
  const signInFailures = new Map<string, number>([
    ['401', 0],
    ['429', 0],
  ]);
  const commitCounts: number[] = new Array(COMMIT_BUCKETS.length + 1).fill(0);
  let commitSum = 0;
  let inFlight = 0;
  let writeFailures = 0;
  let databaseUp = true;
  let writeOutcomeSinceCollect = false;

  const recordWrite = (up: boolean) => {
    databaseUp = up;
    writeOutcomeSinceCollect = true;
  };

  return {
    countAnswer(metric, status, body) {
      if (metric == 'sign_in') {
        if (status == 401 || status == 429) signInFailures.set(String(status), signInFailures.get(String(status))! + 1);
        return;
      }
      const key = `${metric} ${status}`;
      answers.set(key, (answers.get(key) ?? 0) + 1);
      if (status >= 200 && status < 300) accepted.set(metric, accepted.get(metric)! + acceptedCount(body));
    },

    async storeWrite(write) {
      const start = performance.now();
      inFlight++;
      try {
        const value = await write();
        const seconds = (performance.now() - start) / 1000;
        const bucket = COMMIT_BUCKETS.findIndex((bound) => seconds <= bound);
        commitCounts[bucket == -1 ? COMMIT_BUCKETS.length : bucket]!++;
        commitSum += seconds;
        recordWrite(true);
        return value;
      } catch (error) {
        if (error instanceof UnknownSiteError) recordWrite(true);
        else {
          writeFailures++;
          recordWrite(false);
        }
        throw error;
      } finally {
        inFlight--;
      }
    },

    async collect() {
      if (!writeOutcomeSinceCollect) databaseUp = await checkDatabase().then(() => true, () => false);
      writeOutcomeSinceCollect = false;
      const byStatus: Sample[] = [...answers].map(([key, value]) => {
        const [kind, status] = key.split(' ') as [string, string];
        return { labels: { kind, status }, value };
      });
      return [
        {
          name: 'sitebeacon_ingest_requests_total',
          help: 'Report submissions (POST and PUT to the error, CSP and performance endpoints) answered, by report kind and HTTP status.',
          type: 'counter',
          samples: byStatus,
        },
        {
          name: 'sitebeacon_reports_accepted_total',
          help: 'Reports acknowledged (the accepted count of 2xx answers), by report kind.',
          type: 'counter',
          samples: [...accepted].map(([kind, value]) => ({ labels: { kind }, value })),
        },
        {
          name: 'sitebeacon_commit_seconds',
          help: "Store write latency of report submissions: from the handler's store call to its commit.",
          type: 'histogram',
          buckets: COMMIT_BUCKETS,
          samples: [{ bucketCounts: commitCounts, sum: commitSum }],
        },
        {
          name: 'sitebeacon_write_queue_depth',
          help: 'Store writes of report submissions in flight: called, not yet committed or failed.',
          type: 'gauge',
          samples: [{ value: inFlight }],
        },
        {
          name: 'sitebeacon_write_failures_total',
          help: 'Store writes of report submissions that failed (answered 5xx).',
          type: 'counter',
          samples: [{ value: writeFailures }],
        },
        {
          name: 'sitebeacon_database_up',
          help: 'Whether the last store write, or else the health check (GET /api/health) run for this scrape, succeeded (1) or failed (0).',
          type: 'gauge',
          samples: [{ value: databaseUp ? 1 : 0 }],
        },
        {
          name: 'sitebeacon_sign_in_failures_total',
          help: 'Sign-ins (POST /api/v1/session) refused: 401 wrong credentials, 429 limited.',
          type: 'counter',
          samples: [...signInFailures].map(([status, value]) => ({ labels: { status }, value })),
        },
        { name: 'process_resident_memory_bytes', help: 'Resident memory size in bytes.', type: 'gauge', samples: [{ value: process.memoryUsage.rss() }] },
        {
          name: 'process_start_time_seconds',
          help: 'Start time of the process since unix epoch in seconds.',
          type: 'gauge',
          samples: [{ value: Math.round(processStart * 1000) / 1000 }],
        },
      ];
    },
  };
};

/**
 * A route's handler that counts its answers when the route declares a `metric`: the status it
 * answered, or the status of the error it threw (auth, body and limits included); otherwise the
 * handler as it is.
 *
 * @example
 * app.on(route.method, route.path, countAnswers(route, metrics, handlerOf(route, deps)));
 */
export const countAnswers = <T>(route: Route, metrics: Metrics | undefined, handler: (event: H3Event) => Promise<T>) => {
  const metric = route.metric;
  if (!metrics || !metric) return handler;
  return async (event: H3Event): Promise<T> => {
    let body: T;
    try {
      body = await handler(event);
    } catch (error) {
      metrics.countAnswer(metric, statusOf(error));
      throw error;
    }
    metrics.countAnswer(metric, event.res.status ?? 200, body);
    return body;
  };
};
