import { cspAlert, type EnforcedBlock } from '../../core/alerts/periodic';
import type { RaisedAlert } from '../../core/alerts/raised';
import { ruleFromRow, type AlertRuleRow } from '../alertRows';
import { raiseIn } from './alertRaise';
import type { CspRow } from './cspCopies';
import type { Client } from './pool';
import { columns, param } from './rows';

const RULES = `SELECT * FROM alert_rules WHERE site_key = ANY($1::text[]) AND kind = 'csp_enforced_new' ORDER BY id`;
const NAMES = 'SELECT site_key, name FROM sites WHERE site_key = ANY($1::text[])';
// Before the batch's own rows are inserted: any stored enforced report of the directive and host.
const BLOCKED_BEFORE = `SELECT w.site_key, w.directive, w.host FROM unnest($1::text[], $2::text[], $3::text[]) AS w (site_key, directive, host)
  WHERE EXISTS (SELECT 1 FROM csp_reports r WHERE r.site_key = w.site_key AND r.effective_directive = w.directive
    AND (r.blocked_host = w.host OR (w.host = '' AND r.blocked_host IS NULL)) AND r.disposition = 'enforce')`;

/**
 * `csp_enforced_new` at ingest (docs/alerts.md, "New CSP blocks") in the batch's transaction, as
 * sqlite/cspAlerts.ts, before the batch's CSP rows are inserted: each directive and host of an
 * enforced violation that no stored enforced report of the site has raises the site's
 * csp_enforced_new rules. Two collectors storing the first such block at once raise the same key
 * (core/alerts/raised.ts): the second insert waits for the first and writes nothing. A batch
 * without an enforced violation reads nothing; a site without such a rule costs one read.
 *
 * @example
 * await writeCspAlerts(client, batch.csp, Date.now());
 */
export const writeCspAlerts = async (client: Client, rows: readonly CspRow[], now: number): Promise<number> => {
  const blocks = new Map<string, EnforcedBlock & { siteKey: string }>();
  for (const row of rows) {
    const directive = param(row.effective_directive);
    if (row.report_type != 'csp-violation' || row.disposition != 'enforce' || typeof directive != 'string' || !directive) continue;
    const siteKey = row.site_key as string;
    const host = (param(row.blocked_host) as string | null) ?? '';
    const key = `${siteKey}\n${directive}\n${host}`;
    if (!blocks.has(key)) blocks.set(key, { siteKey, directive, blocked_host: host, page_url: (param(row.document_uri) as string | null) ?? undefined });
  }
  if (!blocks.size) return 0;
  const siteKeys = [...new Set([...blocks.values()].map(({ siteKey }) => siteKey))];
  const rules = (await client.query<AlertRuleRow>({ name: 'csp_alert_rules', text: RULES, values: [siteKeys] })).rows.map(ruleFromRow);
  if (!rules.length) return 0;
  const before = await client.query<{ site_key: string; directive: string; host: string }>({
    name: 'csp_blocked_before',
    text: BLOCKED_BEFORE,
    values: columns([...blocks.values()].map(({ siteKey, directive, blocked_host }) => [siteKey, directive, blocked_host]), 3),
  });
  for (const row of before.rows) blocks.delete(`${row.site_key}\n${row.directive}\n${row.host}`);
  const names = new Map((await client.query<{ site_key: string; name: string }>({ name: 'csp_alert_names', text: NAMES, values: [siteKeys] })).rows.map((row) => [row.site_key, row.name]));
  const raised: RaisedAlert[] = [];
  for (const block of blocks.values()) {
    const site = { key: block.siteKey, name: names.get(block.siteKey) ?? block.siteKey };
    for (const rule of rules) if (rule.site_key == block.siteKey) raised.push(cspAlert({ rule, site, block, now }));
  }
  return raiseIn(client, raised);
};
