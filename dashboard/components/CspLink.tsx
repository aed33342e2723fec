import type { IssueListItem } from '../../collector/routes/apiTypes';
import { clip, segment, time } from '../format';

/**
 * What an issue's page says of a failed load that a CSP violation explains (docs/issues.md, "A
 * resource a CSP blocked"): the policy refused it, which directive, and where the violations and
 * the suggested policy are. Stored URLs are text, never links.
 *
 * @example
 * <CspLink siteKey="3f2a" violation={issue.csp_violation} />
 */
export const CspLink = ({ siteKey, violation }: { siteKey: string; violation: NonNullable<IssueListItem['csp_violation']> }) => (
  <section class="csp-link" aria-labelledby="csp-link-title" data-testid="csp-violation">
    <h2 id="csp-link-title">Blocked by the Content Security Policy</h2>
    <p>
      The site's policy refused this resource: its <code>{clip(violation.directive, 80)}</code> directive blocked{' '}
      <span class="code url">{clip(violation.blocked_url, 300)}</span> on the same page (violation received {time(violation.received_at)}). The failed
      load and the violation are one event, seen by the beacon and by the browser's report.
    </p>
    <p>
      <a href={`/sites/${segment(siteKey)}/setup#csp`}>The suggested policy for the site's violations</a>
    </p>
  </section>
);

/** The issues list's mark of the same: a badge naming the directive. */
export const CspBadge = ({ violation }: { violation: IssueListItem['csp_violation'] }) =>
  violation ? (
    <span class="badge csp" data-testid="badge-csp" title={`A CSP violation (${violation.directive}) explains it`}>
      Blocked by CSP: {clip(violation.directive, 40)}
    </span>
  ) : null;
