import type * as v from 'valibot';
import type { IssueTagsSchema } from '../schemas/answers/issueAnswers';
import type { FieldCount } from '../store/contract';
import { issueRangeOf, type IssueFilterQuery, type IssueReads } from './issueViews';
import { countedIssueState } from './readIssue';

const valuesOf = (counts: FieldCount[]) => counts.map(({ value, reports }) => ({ value, count: reports }));

/**
 * `GET /api/v1/sites/{site_key}/issues/{fingerprint}/tags` (docs/issues.md): the issue's reports in
 * the range (last 14 days unless asked; bots left out unless asked) counted by browser, OS, device,
 * page and release, the `limit` most frequent of each; undefined when it is none of the site's issues.
 *
 * @example
 * const tags = await readIssueTags(store, site, { fingerprint: '9f2c…', limit: 10 });
 */
export const readIssueTags = async (
  store: IssueReads,
  { site_key }: { site_key: string },
  query: IssueFilterQuery & { fingerprint: string; limit: number },
  { now = Date.now() }: { now?: number } = {},
): Promise<v.InferInput<typeof IssueTagsSchema> | undefined> => {
  if (!(await countedIssueState(store, site_key, query.fingerprint))) return undefined;
  const { filter } = issueRangeOf(query, now);
  const tags = await store.issues.tags(site_key, query.fingerprint, { ...filter, limit: query.limit });
  return {
    browser: valuesOf(tags.browser),
    os: valuesOf(tags.os),
    device: valuesOf(tags.device),
    page: valuesOf(tags.page),
    release: valuesOf(tags.release),
  };
};
