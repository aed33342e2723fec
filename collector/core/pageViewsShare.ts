/**
 * The share (0..1) of a range's page views on which an issue occurred (docs/issues.md, "Visitors"):
 * 0 when the site counted no page views (no performance sessions: nothing to divide by), and never
 * above 1 (errors also come from pages whose performance session was not sent).
 *
 * @example
 * pageViewsShare(5, 200) // 0.025
 * pageViewsShare(5, 0) // 0
 */
export const pageViewsShare = (issuePageViews: number, pageViews: number) =>
  pageViews > 0 && issuePageViews > 0 ? Math.min(1, issuePageViews / pageViews) : 0;
