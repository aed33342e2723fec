import type { NewCspReport, NewErrorReport, PerformanceSession, ReceiveContext } from '../../core/records';
import { groupDisposition } from '../../core/cspDisposition';
import type { Client } from './pool';
import type { RoutedSession } from '../contract/performanceSessions';
import { sessionRoute } from '../sessionRoute';
import { storedText } from '../storedText';
import { columns, param } from './rows';
import { CSP_COLUMNS } from '../cspReportColumns';
import { CSP_TYPES } from './cspTypes';
import { writeCspAlerts } from './cspAlerts';
import { storeCspCopies, type CopiesCall, type CountedCsp, type CspRow } from './cspCopies';
import { occurrenceOf, writeIssues, type IssueOccurrences } from './issueWrites';
import { writeIssueDays } from './issueDayWrites';
import { IssueDayDeltas } from '../issueDays';

const DAY = 86_400_000;

export const ERROR_COLUMNS = [
  'site_key', 'received_at', 'user_agent', 'visitor', 'error_type', 'error_message', 'error_name', 'stack', 'source_url',
  'line', 'column', 'page_url', 'timestamp', 'session_id', 'count', 'extra', 'fingerprint', 'causes',
  'release', 'environment', 'browser', 'os', 'device', 'bot',
] as const;
const ERROR_TYPES = [
  'text', 'int8', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'int8', 'int8', 'text', 'float8', 'text', 'int8', 'text', 'text', 'text',
  'text', 'text', 'text', 'text', 'text', 'int2',
];

interface SessionRow {
  site_key: string;
  session_id: string;
  received_at: number;
  updated_at: number;
  user_agent: string | undefined;
  visitor: string | undefined;
  release: string | undefined;
  environment: string | undefined;
  device: string | undefined;
  bot: number | undefined;
  page_url: string | undefined;
  route: string | undefined;
  navigation_type: string | undefined;
  started_at: number | undefined;
  extra: Record<string, unknown> | undefined;
  /** A Map, not an object: a metric named `__proto__` is a name like any other here. */
  metrics: Map<string, PerformanceSession['metrics'][string]>;
  /** Per metric, when it was last set: performance_metrics.updated_at, what the summary's `since` reads. */
  metricTimes: Map<string, number>;
}

/**
 * The rows one group commit writes, gathered from every write of the group: reports as one
 * multi-row INSERT per table (`unnest` of one array per column: one prepared statement whatever
 * the number of rows), the per-day aggregates summed over the group and upserted once per key, and
 * sessions merged per `session_id` (PostgreSQL refuses to upsert one row twice in one statement).
 * Aggregate and session keys are written sorted, so two processes lock rows in the same order and
 * do not deadlock each other.
 */
export class Batch {
  readonly errors: Array<Record<string, unknown>> = [];
  readonly errorGroups = new Map<string, unknown[]>();
  readonly csp: CspRow[] = [];
  readonly cspGroups = new Map<string, unknown[]>();
  /** Calls whose CSP reports may be copies of one violation: matched when the batch is written (cspCopies.ts). */
  readonly cspCopies: CopiesCall[] = [];
  readonly sessions = new Map<string, SessionRow>();
  /** Each stored error report as its issue's occurrence, in order (issueWrites.ts). */
  readonly occurrences: IssueOccurrences = [];
  /** The issues' list's per-day counts of people's reports (issueDayWrites.ts). */
  readonly days = new IssueDayDeltas();

  /** Adds error reports and folds them into `error_groups` as sqlite/reports.ts does. */
  addErrors(siteKey: string, reports: NewErrorReport[], { received_at, user_agent, visitor, client }: ReceiveContext) {
    const day = Math.floor(received_at / DAY);
    const parsed = client && { browser: client.browser, os: client.os ?? undefined, device: client.device, bot: client.bot ? 1 : 0 };
    for (const report of reports) {
      // No causes and an empty list are stored alike, as NULL (sqlite/errorRows.ts).
      this.errors.push({ ...report, causes: report.causes?.length ? report.causes : undefined, site_key: siteKey, received_at, user_agent, visitor, ...parsed });
      this.occurrences.push([siteKey, occurrenceOf(report, received_at)]);
      if (!client?.bot) {
        const values = { page: text(report.page_url), browser: text(parsed?.browser), os: text(parsed?.os), device: text(parsed?.device), release: text(report.release), environment: text(report.environment) };
        this.days.add({ siteKey, fingerprint: report.fingerprint, day, count: report.count ?? 1, visitor: text(visitor), values });
      }
      const key = `${siteKey}\n${report.fingerprint}\n${day}`;
      const group = this.errorGroups.get(key);
      const sample = [report.error_type, report.error_name ?? null, report.error_message];
      if (!group) {
        this.errorGroups.set(key, [siteKey, report.fingerprint, day, 1, report.count ?? 1, received_at, received_at, ...sample]);
        continue;
      }
      group[3] = (group[3] as number) + 1;
      group[4] = (group[4] as number) + (report.count ?? 1);
      group[5] = Math.min(group[5] as number, received_at);
      group[6] = Math.max(group[6] as number, received_at);
      group.splice(7, 3, ...sample);
    }
    return reports.length;
  }

  /** Adds CSP reports (none of them a copy to merge: cspCopies.ts) and folds the violations into `csp_groups`. */
  addCsp(siteKey: string, reports: NewCspReport[], context: ReceiveContext) {
    for (const report of reports) this.addCspRow(siteKey, report, context, report.source ? [report.source] : undefined, undefined);
    return reports.length;
  }

  /**
   * Adds CSP reports of which some may be copies of one violation: they are matched against the
   * stored ones when the batch is written, in its transaction (cspCopies.ts). Resolves to how
   * many were stored anew, once the batch is written.
   */
  addCspCopies(siteKey: string, reports: NewCspReport[], context: ReceiveContext) {
    return new Promise<number>((stored) => this.cspCopies.push({ siteKey, reports, context, stored }));
  }

  private addCspRow(siteKey: string, report: NewCspReport, { received_at, user_agent, visitor }: ReceiveContext, sources: string[] | undefined, awaiting: string | undefined) {
    const row: CspRow = { ...report, site_key: siteKey, received_at, user_agent, visitor, sources, awaiting };
    this.csp.push(row);
    this.countCspGroup(siteKey, { ...report, received_at }, 1);
    return row;
  }

  /** Adds `delta` to the csp_groups count of a violation's group (a merged copy moves one: cspCopies.ts). */
  private countCspGroup(siteKey: string, report: CountedCsp, delta: number) {
    if (report.report_type != 'csp-violation' || !report.effective_directive) return;
    const group = [siteKey, report.effective_directive, report.blocked_host ?? '', groupDisposition(report.disposition), Math.floor(report.received_at / DAY)];
    const key = group.join('\n');
    const counted = this.cspGroups.get(key) ?? [...group, 0];
    counted[5] = (counted[5] as number) + delta;
    this.cspGroups.set(key, counted);
  }

  /** Adds a session upsert: a later one of the same session in this batch merges into it. */
  addSession(site: string, session: RoutedSession, { received_at, user_agent, visitor, client }: ReceiveContext) {
    // The key as stored (storedText), so that the ids the upsert returns are found by it. Metric
    // names become jsonb keys, which cannot hold NUL either (the schema allows letters only).
    const [siteKey, sessionId] = [storedText(site), storedText(session.session_id)];
    const metrics = new Map(Object.entries(session.metrics).map(([name, metric]) => [storedText(name), metric]));
    const key = `${siteKey}\n${sessionId}`;
    const row = this.sessions.get(key);
    const metricTimes = new Map([...metrics.keys()].map((name) => [name, received_at]));
    if (!row) {
      this.sessions.set(key, {
        site_key: siteKey, session_id: sessionId, received_at, updated_at: received_at, user_agent, visitor,
        release: session.release, environment: session.environment, device: client?.device, bot: client && (client.bot ? 1 : 0),
        page_url: session.page_url, route: sessionRoute(session), navigation_type: session.navigation_type, started_at: session.started_at,
        extra: session.extra, metrics, metricTimes,
      });
      return;
    }
    // What a second UPDATE would do (sqlite/performance.ts): the latest non-null field wins.
    row.updated_at = received_at;
    row.page_url = session.page_url ?? row.page_url;
    row.route = sessionRoute(session) ?? row.route;
    row.navigation_type = session.navigation_type ?? row.navigation_type;
    row.started_at = session.started_at ?? row.started_at;
    row.extra = session.extra ?? row.extra;
    row.release = session.release ?? row.release;
    row.environment = session.environment ?? row.environment;
    for (const [name, metric] of metrics) row.metrics.set(name, metric);
    for (const [name, at] of metricTimes) row.metricTimes.set(name, at);
  }

  /** Writes the batch in the transaction `client` has open. */
  async write(client: Client) {
    if (this.errors.length) await insertRows(client, 'error_reports', ERROR_COLUMNS, ERROR_TYPES, this.errors);
    if (this.errorGroups.size) await client.query({ name: 'upsert_error_groups', text: UPSERT_ERROR_GROUPS, values: columns(sorted(this.errorGroups), 10) });
    if (this.occurrences.length) await writeIssues(client, this.occurrences);
    if (this.days.counts.size) await writeIssueDays(client, this.days);
    if (this.cspCopies.length) await storeCspCopies(
        client,
        this.cspCopies,
        (...row) => this.addCspRow(...row),
        (...group) => this.countCspGroup(...group),
      );
    // A new enforced block's alerts, read against what was stored before this batch (cspAlerts.ts).
    if (this.csp.length) await writeCspAlerts(client, this.csp, Date.now());
    if (this.csp.length) await insertRows(client, 'csp_reports', CSP_COLUMNS, CSP_TYPES, this.csp);
    if (this.cspGroups.size) {
      await client.query({ name: 'upsert_csp_groups', text: UPSERT_CSP_GROUPS, values: columns(sorted(this.cspGroups), 6) });
      // A count moved away by a merged copy: a group left at none is gone.
      const emptied = sorted(this.cspGroups).filter((group) => Number(group[5]) <= 0);
      if (emptied.length) await client.query({ text: DROP_EMPTY_CSP_GROUPS, values: columns(emptied.map((group) => group.slice(0, 5)), 5) });
    }
    if (this.sessions.size) await this.writeSessions(client);
  }

  private async writeSessions(client: Client) {
    const sessions = [...this.sessions.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
    const { rows } = await client.query<{ id: number; site_key: string; session_id: string }>({
      name: 'upsert_sessions',
      text: UPSERT_SESSIONS,
      values: columns(
        sessions.map((row) => [
          row.site_key, row.session_id, row.received_at, row.updated_at, param(row.user_agent), param(row.page_url),
          param(row.navigation_type), param(row.started_at), param(Object.fromEntries(row.metrics)), param(row.extra),
          param(row.visitor), param(row.release), param(row.environment), param(row.device), param(row.bot), param(row.route),
        ]),
        16,
      ),
    });
    const ids = new Map(rows.map((row) => [`${row.site_key}\n${row.session_id}`, row.id]));
    const metrics = sessions
      .flatMap((row) => {
        const id = ids.get(`${row.site_key}\n${row.session_id}`)!;
        return [...row.metrics].map(([name, metric]) => [id, row.site_key, name, metric.value, row.metricTimes.get(name)!]);
      })
      .sort((a, b) => (a[0] as number) - (b[0] as number) || ((a[2] as string) < (b[2] as string) ? -1 : 1));
    await client.query({ name: 'upsert_metrics', text: UPSERT_METRICS, values: columns(metrics, 5) });
  }
}

/** A value as stored (rows.ts `param`), null when absent. */
const text = (value: string | undefined) => param(value) as string | null;

const sorted = (map: Map<string, unknown[]>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row.map(param));

const unnest = (types: string[]) => `SELECT * FROM unnest(${types.map((type, index) => `$${index + 1}::${type}[]`).join(', ')})`;

const insertRows = (client: Client, table: string, names: readonly string[], types: string[], records: Array<Record<string, unknown>>) =>
  client.query({
    name: `insert_${table}`,
    text: `INSERT INTO ${table} (${names.map((name) => `"${name}"`).join(', ')}) ${unnest(types)}`,
    values: columns(records.map((record) => names.map((name) => param(record[name]))), names.length),
  });

const UPSERT_ERROR_GROUPS = `INSERT INTO error_groups (site_key, fingerprint, day, reports, count, first_seen, last_seen, error_type, error_name, error_message)
  ${unnest(['text', 'text', 'int8', 'int8', 'int8', 'int8', 'int8', 'text', 'text', 'text'])}
  ON CONFLICT (site_key, fingerprint, day) DO UPDATE SET reports = error_groups.reports + excluded.reports,
    count = error_groups.count + excluded.count, first_seen = least(error_groups.first_seen, excluded.first_seen),
    last_seen = greatest(error_groups.last_seen, excluded.last_seen), error_type = excluded.error_type,
    error_name = excluded.error_name, error_message = excluded.error_message`;

const UPSERT_CSP_GROUPS = `INSERT INTO csp_groups (site_key, directive, blocked_host, disposition, day, reports)
  ${unnest(['text', 'text', 'text', 'text', 'int8', 'int8'])}
  ON CONFLICT (site_key, directive, blocked_host, disposition, day) DO UPDATE SET reports = csp_groups.reports + excluded.reports`;

const DROP_EMPTY_CSP_GROUPS = `DELETE FROM csp_groups WHERE reports <= 0
  AND (site_key, directive, blocked_host, disposition, day) IN (${unnest(['text', 'text', 'text', 'text', 'int8'])})`;

// Two processes upserting one session merge: the row is locked by the first, and the second's
// `metrics || excluded.metrics` then applies to what the first committed (each metric its latest value).
const UPSERT_SESSIONS = `INSERT INTO performance_sessions
    (site_key, session_id, received_at, updated_at, user_agent, page_url, navigation_type, started_at, metrics, extra, visitor,
     release, environment, device, bot, route)
  ${unnest(['text', 'text', 'int8', 'int8', 'text', 'text', 'text', 'float8', 'jsonb', 'text', 'text', 'text', 'text', 'text', 'int2', 'text'])}
  ON CONFLICT (site_key, session_id) DO UPDATE SET updated_at = excluded.updated_at,
    metrics = performance_sessions.metrics || excluded.metrics,
    page_url = coalesce(excluded.page_url, performance_sessions.page_url),
    navigation_type = coalesce(excluded.navigation_type, performance_sessions.navigation_type),
    started_at = coalesce(excluded.started_at, performance_sessions.started_at),
    extra = coalesce(excluded.extra, performance_sessions.extra),
    release = coalesce(excluded.release, performance_sessions.release),
    environment = coalesce(excluded.environment, performance_sessions.environment),
    route = coalesce(excluded.route, performance_sessions.route)
  RETURNING id, site_key, session_id`;

const UPSERT_METRICS = `INSERT INTO performance_metrics (session_row, site_key, name, value, updated_at)
  ${unnest(['int8', 'text', 'text', 'float8', 'int8'])}
  ON CONFLICT (session_row, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`;
