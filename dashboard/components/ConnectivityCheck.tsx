import { useState } from 'preact/hooks';
import { cspBlocks } from '../connectivity/cspBlocks';
import { runCheck, type CheckRow, type CheckTarget } from '../connectivity/runCheck';
import { formatNumber } from '../format';

/** Spec section 8's recommended total time of a connectivity check. */
const TIMEOUT_MS = 20_000;

/**
 * The setup page's "check from this browser" (spec section 5.2): a button that checks the ingest
 * host and the main host separately and, if asked, sends one test report; then per row: OK or
 * Failed with the reason, and what to do. Everything shown is text (answers included).
 * `onSubmitted` runs after an accepted test report (the page then reloads its last check).
 *
 * @example
 * <ConnectivityCheck target={{ siteKey, apiBase: setup.api_base, mainApiBase: setup.legacy_api_base }} onSubmitted={reload} />
 */
export const ConnectivityCheck = ({ target, onSubmitted }: { target: CheckTarget; onSubmitted: () => void }) => {
  const [submit, setSubmit] = useState(true);
  const [running, setRunning] = useState(false);
  const [rows, setRows] = useState<CheckRow[]>([]);
  const [status, setStatus] = useState('');
  const check = async () => {
    setRunning(true);
    setRows([]);
    setStatus('Checking…');
    const watch = cspBlocks(document);
    try {
      const result = await runCheck(target, { submit, timeoutMs: TIMEOUT_MS, blockedByPolicy: watch.blocked, online: () => navigator.onLine, from: location.host });
      setRows(result);
      const failed = result.filter((row) => !row.verdict.ok).length;
      setStatus(failed ? `Check finished: ${formatNumber(failed)} of ${formatNumber(result.length)} failed.` : `Check finished: all ${formatNumber(result.length)} passed.`);
      if (result.some((row) => row.id == 'submission' && row.verdict.ok)) onSubmitted();
    } finally {
      watch.stop();
      setRunning(false);
    }
  };
  return (
    <div class="check">
      <p>
        <label>
          <input type="checkbox" checked={submit} onChange={(event) => setSubmit(event.currentTarget.checked)} /> Also send one test report
          (stored as a connectivity check, not counted as an error)
        </label>
      </p>
      <p>
        <button type="button" onClick={check} disabled={running}>
          Check connectivity from this browser
        </button>{' '}
        <span role="status" data-testid="connectivity-status">
          {status}
        </span>
      </p>
      {rows.length > 0 && (
        <ul class="check-results" data-testid="connectivity-results">
          {rows.map((row) => (
            <li class={row.verdict.ok ? 'ok' : 'failed'} data-testid={`connectivity-${row.id}`}>
              <strong>{row.label}</strong> <span class="url">{row.url}</span>
              <p class="verdict">{row.verdict.summary}</p>
              {row.verdict.advice && (
                <p class="small advice">
                  What to do: {row.verdict.advice}
                  {row.verdict.command && (
                    <>
                      {' '}
                      <code>{row.verdict.command}</code>
                    </>
                  )}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
