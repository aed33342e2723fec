import type { Database } from 'better-sqlite3';
import { cspAlert, type EnforcedBlock } from '../../core/alerts/periodic';
import type { RaisedAlert } from '../../core/alerts/raised';
import type { AlertRule } from '../../core/alerts/rules';
import { ruleFromRow, type AlertRuleRow } from '../alertRows';
import { CSP_REPORT_COLUMNS } from '../cspReportColumns';
import { createRaiser } from './alertRaise';
import type { CspRow } from './cspRows';

const at = (column: (typeof CSP_REPORT_COLUMNS)[number]) => CSP_REPORT_COLUMNS.indexOf(column);
const COLUMN = { type: at('report_type'), directive: at('effective_directive'), disposition: at('disposition'), host: at('blocked_host'), page: at('document_uri') };

/** A transaction's enforced blocks, by site, directive and host: the first stored row of each. */
export type EnforcedBlocks = Map<string, EnforcedBlock & { siteKey: string; firstId: number }>;

/**
 * `csp_enforced_new` at ingest (docs/alerts.md, "New CSP blocks"), in the writer thread's
 * transaction: each enforced violation stored is noted, and at the group's end each directive and
 * host no enforced report of the site had before (a stored row older than the group's first) raises
 * the site's csp_enforced_new rules (core/alerts/periodic.ts cspAlert), written with the reports.
 * A site without such a rule costs one read of its rules per transaction.
 *
 * @example
 * const blocks = cspAlerts.newGroup();
 * cspAlerts.note(blocks, siteKey, row, rowid);
 * cspAlerts.flush(blocks, Date.now());
 */
export const createCspAlertWriter = (db: Database) => {
  const selectRules = db.prepare<[string], AlertRuleRow>(`SELECT * FROM alert_rules WHERE site_key = ? AND kind = 'csp_enforced_new' ORDER BY id`);
  const selectName = db.prepare<[string], string>('SELECT name FROM sites WHERE site_key = ?').pluck();
  const blockedBefore = db
    .prepare<[string, string, string | null, number], number>(
      `SELECT 1 FROM csp_reports WHERE site_key = ? AND effective_directive = ? AND blocked_host IS ? AND disposition = 'enforce' AND id < ? LIMIT 1`,
    )
    .pluck();
  const raise = createRaiser(db);
  return {
    newGroup: (): EnforcedBlocks => new Map(),
    /** Notes a stored report (its row id `id`) if it is an enforced violation. */
    note(blocks: EnforcedBlocks, siteKey: string, row: CspRow, id: number) {
      const directive = row[COLUMN.directive];
      if (row[COLUMN.type] != 'csp-violation' || row[COLUMN.disposition] != 'enforce' || typeof directive != 'string' || !directive) return;
      const host = (row[COLUMN.host] as string | null) ?? '';
      const key = `${siteKey}\n${directive}\n${host}`;
      if (!blocks.has(key)) blocks.set(key, { siteKey, directive, blocked_host: host, page_url: (row[COLUMN.page] as string | null) ?? undefined, firstId: id });
    },
    /** Writes the alerts of the blocks new to their site; the outbox rows written. */
    flush(blocks: EnforcedBlocks, now: number): number {
      if (!blocks.size) return 0;
      const rules = new Map<string, AlertRule[]>();
      const raised: RaisedAlert[] = [];
      for (const block of blocks.values()) {
        if (!rules.has(block.siteKey)) rules.set(block.siteKey, selectRules.all(block.siteKey).map(ruleFromRow));
        const siteRules = rules.get(block.siteKey)!;
        if (!siteRules.length || blockedBefore.get(block.siteKey, block.directive, block.blocked_host || null, block.firstId)) continue;
        const site = { key: block.siteKey, name: selectName.get(block.siteKey) ?? block.siteKey };
        for (const rule of siteRules) raised.push(cspAlert({ rule, site, block, now }));
      }
      return raise(raised);
    },
  };
};
