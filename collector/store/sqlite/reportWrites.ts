import type { Database } from 'better-sqlite3';
import type { CspSource, ReceiveContext } from '../../core/records';
import { awaitedByNewReport, COPY_WINDOW_MS, copyToMergeInto, replacesStoredFields, sideOf, sourcesWithCopy } from '../../core/cspCopies';
import { SELECT_COPY_TO_MERGE_INTO } from '../awaitingCopy';
import { CSP_COLUMNS, CSP_REPORT_COLUMNS } from '../cspReportColumns';
import { createCspAlertWriter } from './cspAlerts';
import { countedOf, createCspGroupCounter } from './cspGroupCounts';
import { CSP_ROW, type CspRow } from './cspRows';
import { ERROR_ROW, ERROR_ROW_COLUMNS, type ErrorRow } from './errorRows';
import { insertSql, positionalInsertSql, toRow } from './rows';
import { underSite } from './underSite';
import { createIssueWriter } from './issueWrites';
import { createIssueDayWriter } from './issueDayWrites';
import { storedJson, storedText } from '../storedText';
import { UnknownSiteError } from '../unknownSiteError';
import type { RoutedSession } from '../contract/performanceSessions';
import { sessionRoute } from '../sessionRoute';

const DAY = 86_400_000;

/**
 * One write of reports, as data: what the store's `errors.insert`, `csp.insert` and
 * `performance.upsert` hand to the writer (reportQueue.ts), in this thread or the writer thread
 * (writerThread.ts), which is why it is plain data and not a closure.
 */
export type ReportWrite =
  | { kind: 'errors'; siteKey: string; rows: ErrorRow[]; context: ReceiveContext }
  | { kind: 'csp'; siteKey: string; rows: CspRow[]; context: ReceiveContext }
  | { kind: 'session'; siteKey: string; session: RoutedSession; context: ReceiveContext }
  /** Writes nothing: resolves once every write queued before it has committed. */
  | { kind: 'barrier' };

/**
 * A write's outcome: the number its store method resolves to, or the error it rejects with, as
 * data that crosses threads (`unknownSite`: an UnknownSiteError's key, unknownSiteError.ts).
 */
export type WriteOutcome =
  | { ok: true; value: number }
  | { ok: false; error: { message: string; code?: string | undefined; unknownSite?: string | undefined } };

/**
 * Report writes, queued and group-committed: each resolves after its commit (reportQueue.ts makes
 * them). Declared here, beside the writes it takes, rather than with the queue: the store's parts
 * that submit writes (reports.ts, performance.ts) then need nothing of the threads, and the thread
 * that runs the reads (writerThread.ts, reads.ts) imports none of itself back.
 *
 * @example
 * const stored = await queue.submit({ kind: 'errors', siteKey, rows, context });
 */
export interface ReportQueue {
  submit(write: ReportWrite): Promise<number>;
  /** Commits what is queued, then stops. */
  close(): Promise<void>;
}

const ERROR_COLUMNS = ['site_key', 'received_at', 'user_agent', 'visitor', 'browser', 'os', 'device', 'bot', ...ERROR_ROW_COLUMNS] as const;

const SESSION_COLUMNS = [
  'site_key', 'session_id', 'received_at', 'updated_at', 'user_agent', 'page_url', 'navigation_type',
  'started_at', 'metrics', 'extra', 'visitor', 'release', 'environment', 'device', 'bot', 'route',
] as const;

interface ErrorGroupDelta {
  siteKey: string;
  fingerprint: string;
  day: number;
  reports: number;
  count: number;
  firstSeen: number;
  lastSeen: number;
  sample: ErrorRow;
}

/**
 * The writes of reports and sessions in SQLite, and the per-day aggregates the summary reads
 * (`error_groups`, `csp_groups`: reports.ts). The aggregates are folded in memory over a whole group
 * commit and written once per key at its end (`runGroup`): one upsert per error fingerprint and
 * day, and per CSP directive, host and day, for the hundreds of reports a commit can hold.
 *
 * @example
 * const writer = createReportWriter(db);
 * writer.commitGroup([{ kind: 'errors', siteKey, reports, context }]); // [{ ok: true, value: 1 }]
 */
export const createReportWriter = (db: Database) => {
  // Each issue's lifecycle, kept in the transaction of its reports (issueWrites.ts).
  const issues = createIssueWriter(db);
  // The issues' list's per-day counts by field value and visitors, of people's reports (issueDayWrites.ts).
  const issueDays = createIssueDayWriter(db);
  const insertError = db.prepare(positionalInsertSql('error_reports', ERROR_COLUMNS));
  const upsertErrorGroup = db.prepare(
    `INSERT INTO error_groups VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (site_key, fingerprint, day) DO UPDATE SET reports = reports + excluded.reports, count = count + excluded.count,
       first_seen = min(first_seen, excluded.first_seen), last_seen = max(last_seen, excluded.last_seen),
       error_type = excluded.error_type, error_name = excluded.error_name, error_message = excluded.error_message`,
  );
  const insertCsp = db.prepare(positionalInsertSql('csp_reports', CSP_COLUMNS));
  // The per-day CSP groups (cspGroupCounts.ts).
  const cspGroups = createCspGroupCounter(db);
  // A new enforced block's alerts, in the transaction of its report (cspAlerts.ts).
  const cspAlerts = createCspAlertWriter(db);
  // Copies of one violation (docs/csp-reports.md), through csp_reports_awaiting_copy.
  const selectCopy = db.prepare<[string, string, string, number, number], { id: number; sources: string | null }>(SELECT_COPY_TO_MERGE_INTO);
  const updateSources = db.prepare('UPDATE csp_reports SET sources = ?, awaiting = ? WHERE id = ?');
  const replaceReport = db.prepare(
    `UPDATE csp_reports SET ${CSP_REPORT_COLUMNS.map((column) => `"${column}" = ?`).join(', ')}, sources = ?, awaiting = ? WHERE id = ?`,
  );

  const selectSession = db.prepare<[string, string], { id: number; metrics: string }>(
    'SELECT id, metrics FROM performance_sessions WHERE site_key = ? AND session_id = ?',
  );
  const upsertMetric = db.prepare(
    `INSERT INTO performance_metrics (session_row, site_key, name, value, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (session_row, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const insertSession = db.prepare(insertSql('performance_sessions', SESSION_COLUMNS));
  const updateSession = db.prepare(
    `UPDATE performance_sessions SET updated_at = @updated_at, metrics = @metrics,
       page_url = coalesce(@page_url, page_url), navigation_type = coalesce(@navigation_type, navigation_type),
       started_at = coalesce(@started_at, started_at), extra = coalesce(@extra, extra),
       release = coalesce(@release, release), environment = coalesce(@environment, environment), route = coalesce(@route, route)
     WHERE site_key = @site_key AND session_id = @session_id`,
  );

  /** The aggregates of one transaction, keyed by site, group and day. */
  const newAggregates = () => ({
    errors: new Map<string, ErrorGroupDelta>(),
    csp: cspGroups.newGroup(),
    blocks: cspAlerts.newGroup(),
    issues: issues.newGroup(),
    days: issueDays.newGroup(),
  });
  type Aggregates = ReturnType<typeof newAggregates>;

  const storeErrors = (siteKey: string, rows: ErrorRow[], context: ReceiveContext, aggregates: Aggregates) => {
    const day = Math.floor(context.received_at / DAY);
    const userAgent = context.user_agent === undefined ? null : storedText(context.user_agent);
    const visitor = context.visitor ?? null;
    const { client } = context;
    const clientColumns = client ? [storedText(client.browser), client.os === null ? null : storedText(client.os), client.device, client.bot ? 1 : 0] : [null, null, null, null];
    for (const row of rows) {
      insertError.run(siteKey, context.received_at, userAgent, visitor, ...clientColumns, ...row);
      issues.occur(siteKey, row, context.received_at, aggregates.issues);
      const fingerprint = row[ERROR_ROW.fingerprint] as string;
      const count = (row[ERROR_ROW.count] as number | null) ?? 1;
      if (!client?.bot) {
        const [browser, os, device] = clientColumns as [string | null, string | null, string | null];
        const [page, release, environment] = [row[ERROR_ROW.page], row[ERROR_ROW.release], row[ERROR_ROW.environment]] as [string | null, string | null, string | null];
        aggregates.days.add({ siteKey, fingerprint, day, count, visitor, values: { page, browser, os, device, release, environment } });
      }
      const key = `${siteKey}\n${fingerprint}\n${day}`;
      const group = aggregates.errors.get(key);
      if (group) {
        group.reports += 1;
        group.count += count;
        group.firstSeen = Math.min(group.firstSeen, context.received_at);
        group.lastSeen = Math.max(group.lastSeen, context.received_at);
        // The last report's type, name and message, as one upsert per report would leave them.
        group.sample = row;
      } else {
        aggregates.errors.set(key, { siteKey, fingerprint, day, reports: 1, count, firstSeen: context.received_at, lastSeen: context.received_at, sample: row });
      }
    }
    return rows.length;
  };

  /**
   * Merges `row` into a stored copy of its violation, if there is one to merge into; true if
   * merged. A copy whose fields replace the stored report's moves its count to the group they
   * name (its disposition may differ: docs/csp-reports.md, "Blocked first").
   */
  const mergeCopy = (siteKey: string, row: CspRow, receivedAt: number, aggregates: Aggregates) => {
    const violationKey = row[CSP_ROW.violationKey] as string | null;
    const source = row[CSP_ROW.source] as CspSource | null;
    if (!violationKey || !source) return false;
    const candidates = selectCopy
      .all(siteKey, violationKey, sideOf(source), receivedAt - COPY_WINDOW_MS, receivedAt + COPY_WINDOW_MS)
      .map((stored) => ({ id: stored.id, sources: JSON.parse(stored.sources ?? '[]') as string[] }));
    const target = copyToMergeInto(candidates, source);
    if (!target) return false;
    const { sources, awaiting } = sourcesWithCopy(target.sources, source);
    if (replacesStoredFields(source)) {
      const counted = cspGroups.countedAt(target.id);
      cspGroups.count(aggregates.csp, siteKey, counted, -1);
      cspGroups.count(aggregates.csp, siteKey, countedOf(row, counted.received_at), 1);
      replaceReport.run(...row, JSON.stringify(sources), awaiting, target.id);
    } else {
      updateSources.run(JSON.stringify(sources), awaiting, target.id);
    }
    return true;
  };

  const storeCsp = (siteKey: string, rows: CspRow[], context: ReceiveContext, aggregates: Aggregates) => {
    const userAgent = context.user_agent === undefined ? null : storedText(context.user_agent);
    const visitor = context.visitor ?? null;
    let stored = 0;
    for (const row of rows) {
      if (mergeCopy(siteKey, row, context.received_at, aggregates)) continue;
      stored += 1;
      const source = row[CSP_ROW.source] as string | null;
      const awaiting = awaitedByNewReport(row[CSP_ROW.violationKey] as string | null, source) ?? null;
      const { lastInsertRowid } = insertCsp.run(siteKey, context.received_at, userAgent, visitor, ...row, source === null ? null : storedJson([source]), awaiting);
      cspAlerts.note(aggregates.blocks, siteKey, row, Number(lastInsertRowid));
      cspGroups.count(aggregates.csp, siteKey, countedOf(row, context.received_at), 1);
    }
    return stored;
  };

  const upsertSession = (siteKey: string, session: RoutedSession, context: ReceiveContext) => {
    const existing = selectSession.get(siteKey, session.session_id);
    const metrics = existing ? { ...JSON.parse(existing.metrics), ...session.metrics } : session.metrics;
    const row = toRow(SESSION_COLUMNS, {
      ...session,
      metrics,
      site_key: siteKey,
      received_at: context.received_at,
      updated_at: context.received_at,
      user_agent: context.user_agent,
      visitor: context.visitor,
      // The client of the session's first submission, as its visitor.
      device: context.client?.device,
      bot: context.client === undefined ? undefined : context.client.bot ? 1 : 0,
      route: sessionRoute(session),
    });
    const result = (existing ? updateSession : insertSession).run(row);
    const sessionRow = existing ? existing.id : Number(result.lastInsertRowid);
    for (const [name, metric] of Object.entries(session.metrics)) {
      upsertMetric.run(sessionRow, siteKey, name, metric.value, context.received_at);
    }
    return 1;
  };

  const flushAggregates = ({ errors, csp, blocks, issues: issueGroup, days }: Aggregates) => {
    issues.flush(issueGroup);
    cspAlerts.flush(blocks, Date.now());
    issueDays.flush(days);
    for (const { siteKey, fingerprint, day, reports, count, firstSeen, lastSeen, sample } of errors.values()) {
      upsertErrorGroup.run(siteKey, fingerprint, day, reports, count, firstSeen, lastSeen, sample[ERROR_ROW.type], sample[ERROR_ROW.name], sample[ERROR_ROW.message]);
    }
    cspGroups.flush(csp);
  };

  // A write under a key another process rotated meanwhile fails as UnknownSiteError (underSite.ts).
  const siteWrite = underSite(db);
  const store = (write: Exclude<ReportWrite, { kind: 'barrier' }>, aggregates: Aggregates): number =>
    write.kind == 'errors'
      ? storeErrors(write.siteKey, write.rows, write.context, aggregates)
      : write.kind == 'csp'
        ? storeCsp(write.siteKey, write.rows, write.context, aggregates)
        : upsertSession(write.siteKey, write.session, write.context);
  const run = (write: ReportWrite, aggregates: Aggregates): number =>
    write.kind == 'barrier' ? 0 : siteWrite(write.siteKey, () => store(write, aggregates))();

  /** Runs `writes` in one transaction (BEGIN IMMEDIATE: groupCommit.ts says why); throws, rolled back, if one fails. */
  const runGroup = db.transaction((writes: readonly ReportWrite[]) => {
    const aggregates = newAggregates();
    const values = writes.map((write) => run(write, aggregates));
    flushAggregates(aggregates);
    return values;
  });

  /**
   * Group commit of `writes`: one transaction for all; when it fails, each write alone, so only
   * the one that fails fails. Each outcome is known only after its commit.
   */
  const commitGroup = (writes: readonly ReportWrite[]): WriteOutcome[] => {
    try {
      return runGroup.immediate(writes).map((value) => ({ ok: true, value }));
    } catch {
      return writes.map((write) => {
        try {
          return { ok: true, value: runGroup.immediate([write])[0]! };
        } catch (error) {
          return {
            ok: false,
            error: {
              message: (error as Error)?.message ?? String(error),
              code: (error as { code?: string })?.code,
              unknownSite: error instanceof UnknownSiteError ? error.siteKey : undefined,
            },
          };
        }
      });
    }
  };
  return { commitGroup };
};
