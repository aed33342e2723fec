import type { Issue } from '../../collector/routes/apiTypes';
import { clip, formatNumber, time } from '../format';
import { STATUS_LABELS } from '../issueChange';
import { useIssueChange } from './IssueButtons';

/** The status in words: what the owner set and what brings the issue back (docs/issues.md, "Statuses"). */
const described = (issue: Issue) => {
  if (issue.status == 'resolved') return issue.resolved_in === null ? 'any new occurrence brings it back' : `in release ${clip(issue.resolved_in, 80)}: an occurrence from a later release brings it back`;
  if (issue.status == 'ignored') {
    const until = [
      issue.ignore_until_count === null ? '' : `${formatNumber(issue.ignore_until_count)} more occurrences`,
      issue.ignore_until === null ? '' : time(issue.ignore_until),
    ].filter(Boolean);
    return until.length ? `until ${until.join(' or ')}` : 'until changed';
  }
  return issue.regressed ? 'regressed: it occurred again after being resolved' : '';
};

/**
 * An issue's status and the owner's changes (docs/issues.md, "Statuses"): Resolve, optionally in
 * a release (`releases` offered, any typed); Ignore, optionally until some more occurrences or a
 * UTC date; Unresolve. Each change is sent with the session cookie; `onChanged` then reads the
 * issue again over the page's range.
 *
 * @example
 * <IssueStatus siteKey="3f2a" issue={issue} releases={['1.2']} onChanged={reload} />
 */
export const IssueStatus = ({ siteKey, issue, releases, onChanged }: { siteKey: string; issue: Issue; releases: string[]; onChanged: () => void }) => {
  const { run, busy, failure } = useIssueChange(siteKey, issue.fingerprint, onChanged);
  const field = (event: Event, name: string) => String(new FormData(event.currentTarget as HTMLFormElement).get(name) ?? '').trim();
  const resolve = (event: Event) => {
    event.preventDefault();
    void run({ status: 'resolved', resolved_in: field(event, 'resolved_in') || null });
  };
  const ignore = (event: Event) => {
    event.preventDefault();
    const count = field(event, 'ignore_until_count');
    const date = field(event, 'ignore_until');
    void run({ status: 'ignored', ignore_until_count: count ? Number(count) : null, ignore_until: date ? `${date}T00:00:00Z` : null });
  };
  const words = described(issue);
  return (
    <section aria-labelledby="status-title">
      <h2 id="status-title">Status</h2>
      <p data-testid="issue-status">
        <strong class={`status ${issue.status}`}>{STATUS_LABELS[issue.status]}</strong>
        {words && ` · ${words}`}
      </p>
      <div class="status-forms">
        {issue.status != 'unresolved' && (
          <button type="button" disabled={busy} onClick={() => run({ status: 'unresolved' })}>
            Unresolve
          </button>
        )}
        {issue.status != 'resolved' && (
          <form onSubmit={resolve} aria-label="Resolve">
            <label>
              <span>In release (optional)</span>
              <input name="resolved_in" maxLength={200} list="issue-releases" autocomplete="off" />
            </label>
            <datalist id="issue-releases">
              {releases.map((release) => (
                <option value={release} />
              ))}
            </datalist>
            <button type="submit" disabled={busy}>
              Resolve
            </button>
          </form>
        )}
        {issue.status != 'ignored' && (
          <form onSubmit={ignore} aria-label="Ignore">
            <label>
              <span>Until this many more occurrences (optional)</span>
              <input name="ignore_until_count" type="number" min={1} max={1_000_000_000} step={1} inputMode="numeric" />
            </label>
            <label>
              <span>Until this UTC date (optional)</span>
              <input name="ignore_until" type="date" />
            </label>
            <button type="submit" disabled={busy}>
              Ignore
            </button>
          </form>
        )}
      </div>
      {failure && (
        <p class="error" role="alert">
          {failure}
        </p>
      )}
    </section>
  );
};
