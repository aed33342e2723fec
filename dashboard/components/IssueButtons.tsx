import { useState } from 'preact/hooks';
import type { Issue, IssueChange } from '../../collector/routes/apiTypes';
import type { ApiFailure } from '../fetchJson';
import { changeIssue } from '../issueChange';

/**
 * A change of status, sent once at a time: `run(change)` PATCHes the issue, then hands the issue
 * as changed to `done`; `busy` while it is under way, `failure` what the collector refused.
 *
 * @example
 * const { run, busy } = useIssueChange('3f2a', fingerprint, () => reload());
 */
export const useIssueChange = (siteKey: string, fingerprint: string, done: (issue: Issue) => void) => {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async (change: IssueChange) => {
    setBusy(true);
    setFailure(null);
    try {
      done(await changeIssue(siteKey, fingerprint, change));
    } catch (error) {
      const refused = error as Partial<ApiFailure>;
      setFailure(`The change was refused (${refused.status ?? 'network'}): ${refused.message ?? String(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, failure };
};

/**
 * A list row's one-click changes: Resolve and Ignore an unresolved issue (no release, no limit:
 * the issue page has those), Unresolve the others. `label` names the issue for screen readers.
 *
 * @example
 * <IssueButtons siteKey="3f2a" fingerprint="9b1c…" status="unresolved" label="TypeError: x" onChanged={reload} />
 */
export const IssueButtons = ({ siteKey, fingerprint, status, label, onChanged }: { siteKey: string; fingerprint: string; status: Issue['status']; label: string; onChanged: () => void }) => {
  const { run, busy, failure } = useIssueChange(siteKey, fingerprint, onChanged);
  return (
    <div class="actions">
      {status == 'unresolved' ? (
        <>
          <button type="button" class="secondary" disabled={busy} aria-label={`Resolve ${label}`} onClick={() => run({ status: 'resolved' })}>
            Resolve
          </button>
          <button type="button" class="secondary" disabled={busy} aria-label={`Ignore ${label}`} onClick={() => run({ status: 'ignored' })}>
            Ignore
          </button>
        </>
      ) : (
        <button type="button" class="secondary" disabled={busy} aria-label={`Unresolve ${label}`} onClick={() => run({ status: 'unresolved' })}>
          Unresolve
        </button>
      )}
      {failure && (
        <p class="error small" role="alert">
          {failure}
        </p>
      )}
    </div>
  );
};
