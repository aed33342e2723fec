import type { CspGroup } from '../../collector/routes/apiTypes';
import { clip, formatNumber } from '../format';

const Table = ({ groups, testId, label }: { groups: CspGroup[]; testId: string; label: string }) => (
  <div class="scroll">
    <table class="stack" data-testid={testId} aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Directive</th>
          <th scope="col">Blocked</th>
          <th scope="col" class="num">Reports</th>
        </tr>
      </thead>
      <tbody>
        {groups.map((group) => (
          <tr>
            <td class="code" data-label="Directive">{clip(group.directive, 80)}</td>
            <td class="code url" data-label="Blocked">{clip(group.blocked_host, 120) || '(none)'}</td>
            <td class="num" data-label="Reports">{formatNumber(group.reports)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </div>
);

/**
 * A site's CSP groups split by disposition (docs/csp-reports.md, "Blocked first"): what an enforced
 * policy blocked, which visitors missed, above what a report-only policy would have blocked. Text
 * only, as every stored value on the dashboard (docs/dashboard.md).
 */
export const CspGroups = ({ groups }: { groups: CspGroup[] }) => {
  const enforced = groups.filter((group) => group.disposition == 'enforce');
  const reported = groups.filter((group) => group.disposition != 'enforce');
  return (
    <div data-testid="csp-groups">
      <h3 id="csp-enforced-title">Blocked (enforced)</h3>
      {enforced.length ? (
        <Table groups={enforced} testId="csp-enforced" label="Blocked (enforced)" />
      ) : (
        <p class="muted" data-testid="csp-enforced-none">Nothing blocked by an enforced policy in this range.</p>
      )}
      <h3 id="csp-report-only-title">Would be blocked (report-only)</h3>
      {reported.length ? (
        <Table groups={reported} testId="csp-report-only" label="Would be blocked (report-only)" />
      ) : (
        <p class="muted">Nothing reported by a report-only policy in this range.</p>
      )}
    </div>
  );
};
