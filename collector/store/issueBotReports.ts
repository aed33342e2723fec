import { builder, issueWhere, reportWhere, type BuiltQuery, type Dialect } from './issueQueries';
import type { IssueBotReportOptions } from './contract/issues';

/**
 * How many reports of known bots an issues read leaves out (store/contract/issues.ts
 * `botReports`): the range's and report filters' reports with `bot = 1`, of the issues the list's
 * own filters keep (status at `now`, words, type, excluded types), or of one fingerprint. SQLite
 * reads the bots' partial index (sqlite/issueSchema.ts), or an issue's reports by fingerprint.
 *
 * @example
 * const { text, values } = issueBotReportsQuery('sqlite', 'pk_live_…', { status: 'unresolved', since, until }, Date.now());
 */
export const issueBotReportsQuery = (dialect: Dialect, siteKey: string, options: IssueBotReportOptions, now: number): BuiltQuery => {
  const { values, param } = builder(dialect);
  const terms = [reportWhere(param, siteKey, { ...options, includeBots: true }), 'r.bot = 1'];
  if (options.fingerprint !== undefined) terms.push(`r.fingerprint = ${param(options.fingerprint)}`);
  const issueTerms = issueWhere(param, siteKey, { ...options, sort: 'last_seen', limit: 0 }, now);
  if (issueTerms.length) terms.push(`r.fingerprint IN (SELECT i.fingerprint FROM issues i WHERE ${issueTerms.join(' AND ')})`);
  const index = options.fingerprint === undefined ? 'error_reports_of_bots' : 'error_reports_by_fingerprint_time';
  return { text: `SELECT COUNT(*) AS reports FROM error_reports r ${dialect == 'sqlite' ? `INDEXED BY ${index}` : ''} WHERE ${terms.join(' AND ')}`, values };
};
