/**
 * An alert: one thing a rule noticed, as every channel delivers it (docs/alerts.md). Field names are
 * the webhook body's (snake_case, times ISO); `id` is the idempotency key a receiver sees again on
 * every retry of the same delivery (`Sitebeacon-Delivery`).
 */

/** What noticed it: the rule kinds (docs/alerts.md, "Rule kinds"), and the digest that stands for alerts past the rate. */
export type AlertKind = 'new_issue' | 'regression' | 'spike' | 'csp_enforced_new' | 'vital_poor' | 'digest';

/** An issue (an error group) as an alert shows it. */
export interface AlertIssue {
  fingerprint: string;
  /** `TypeError: x is undefined`: the issue's type and message. */
  title: string;
  page_url?: string | undefined;
  release?: string | undefined;
  environment?: string | undefined;
  occurrences?: number | undefined;
  first_seen?: string | undefined;
  last_seen?: string | undefined;
  /** A spike's occurrences in its window. */
  window_count?: number | undefined;
  window_minutes?: number | undefined;
}

/** An enforced CSP block on a directive and host not blocked before. */
export interface AlertCsp {
  directive: string;
  blocked_host: string;
  page_url?: string | undefined;
}

/** A Web Vital whose p75 became poor. */
export interface AlertVital {
  metric: string;
  p75: number;
  /** The route or page the p75 is of, when the rule watches one. */
  route?: string | undefined;
}

/** The alerts past the per-site rate, as one (core/alerts/digest.ts). */
export interface AlertDigest {
  count: number;
  /** Up to ten of the held alerts' headlines, oldest first. */
  headlines: string[];
  since: string;
}

export interface Alert {
  /** The idempotency key: the same on every try of this alert to every channel. */
  id: string;
  kind: AlertKind;
  site: { key: string; name: string };
  issue?: AlertIssue | undefined;
  csp?: AlertCsp | undefined;
  vital?: AlertVital | undefined;
  digest?: AlertDigest | undefined;
  /** The dashboard's page for it (from `--public-url`). */
  url: string;
  created_at: string;
  /** A test sent from a rule's "Send a test" (docs/alerts.md, "Sending a test"): sample facts, nothing happened. */
  test?: boolean | undefined;
}

const VITAL_UNITS: Record<string, string> = { CLS: '', LCP: ' ms', INP: ' ms', FCP: ' ms', TTFB: ' ms', FID: ' ms' };

/** A vital's p75 as people read it: CLS unitless to two decimals, the others in whole milliseconds. */
export const vitalValue = (vital: AlertVital): string =>
  vital.metric == 'CLS' ? vital.p75.toFixed(2) : `${Math.round(vital.p75)}${VITAL_UNITS[vital.metric] ?? ''}`;

/**
 * What happened, in one sentence, before any channel's escaping or bounds: the mail subject (after
 * `[sitebeacon] `), the chat message's title; a test's starts with `Test: `.
 *
 * @example
 * alertHeadline(alert); // 'New issue on Shop: TypeError: x is undefined'
 */
export const alertHeadline = (alert: Alert): string => (alert.test ? `Test: ${kindHeadline(alert)}` : kindHeadline(alert));

const kindHeadline = (alert: Alert): string => {
  const site = alert.site.name || alert.site.key;
  const issue = alert.issue?.title ?? 'an issue';
  switch (alert.kind) {
    case 'new_issue':
      return `New issue on ${site}: ${issue}`;
    case 'regression':
      return `Regression on ${site}: ${issue}`;
    case 'spike': {
      const window = alert.issue?.window_count !== undefined ? ` (${alert.issue.window_count} in ${alert.issue.window_minutes ?? '?'} min)` : '';
      return `Spike on ${site}: ${issue}${window}`;
    }
    case 'csp_enforced_new':
      return `New CSP block on ${site}: ${alert.csp?.directive ?? '?'} blocked ${alert.csp?.blocked_host ?? '?'}`;
    case 'vital_poor':
      return alert.vital ? `Poor ${alert.vital.metric} on ${site}: p75 ${vitalValue(alert.vital)}` : `Poor vital on ${site}`;
    case 'digest':
      return `${alert.digest?.count ?? 'More'} more alerts on ${site}`;
  }
};

/**
 * The facts an alert lists, as label and value, in the order every channel shows them; absent
 * ones are left out. Values are raw: each channel escapes and bounds them.
 *
 * @example
 * alertFacts(alert); // [['Site', 'Shop (3f2a)'], ['Issue', 'TypeError: x is undefined'], ...]
 */
export const alertFacts = (alert: Alert): Array<[label: string, value: string]> => {
  const facts: Array<[string, string | number | undefined]> = [['Site', `${alert.site.name} (${alert.site.key})`]];
  const { issue, csp, vital, digest } = alert;
  if (issue) {
    facts.push(['Issue', issue.title], ['Page', issue.page_url], ['Release', issue.release], ['Environment', issue.environment]);
    facts.push(['Occurrences', issue.occurrences], ['First seen', issue.first_seen], ['Last seen', issue.last_seen]);
    if (issue.window_count !== undefined) facts.push(['In the window', `${issue.window_count} in ${issue.window_minutes ?? '?'} minutes`]);
  }
  if (csp) facts.push(['Directive', csp.directive], ['Blocked host', csp.blocked_host], ['Page', csp.page_url]);
  if (vital) facts.push(['Metric', vital.metric], ['p75', vitalValue(vital)], ['Route', vital.route]);
  if (digest) facts.push(['Held alerts', digest.count], ['Since', digest.since], ...digest.headlines.map((headline): [string, string] => ['Alert', headline]));
  facts.push(['Created', alert.created_at]);
  return facts.filter((fact): fact is [string, string | number] => fact[1] !== undefined && fact[1] !== '').map(([label, value]) => [label, String(value)]);
};

/**
 * The dashboard's page an alert links to: the issue's page for an issue, else the site's page.
 *
 * @example
 * dashboardLink('https://beacon.shop.example/', 'shop', 'ab12'); // 'https://beacon.shop.example/sites/shop/errors/ab12'
 */
export const dashboardLink = (publicUrl: string, siteKey: string, fingerprint?: string): string => {
  const base = publicUrl.replace(/\/+$/, '');
  const site = `${base}/sites/${encodeURIComponent(siteKey)}`;
  return fingerprint === undefined ? site : `${site}/errors/${encodeURIComponent(fingerprint)}`;
};
