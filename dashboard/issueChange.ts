import { apiPath } from '../collector/routes/apiPath';
import type { Issue, IssueChange } from '../collector/routes/apiTypes';
import { send } from './fetchJson';

/**
 * The owner's change of an issue's status (`PATCH .../issues/{fingerprint}`, docs/issues.md,
 * "Statuses"), sent with the session cookie: the browser adds this page's Origin, which the
 * collector checks (docs/access.md). Resolves to the issue as changed; rejects with an ApiFailure.
 *
 * @example
 * await changeIssue('3f2a', '9b1c0d2e3f4a5b6c', { status: 'resolved', resolved_in: '1.2' });
 */
export const changeIssue = async (siteKey: string, fingerprint: string, change: IssueChange): Promise<Issue> => {
  const response = await send('PATCH', apiPath('/api/v1/sites/:site_key/issues/:fingerprint', { site_key: siteKey, fingerprint }), change);
  return (await response.json()) as Issue;
};

/** What a status is called on the dashboard. */
export const STATUS_LABELS = { unresolved: 'Unresolved', resolved: 'Resolved', ignored: 'Ignored', all: 'All' } as const;
