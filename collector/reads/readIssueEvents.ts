import type * as v from 'valibot';
import type { IssueEventsSchema } from '../schemas/answers/issueAnswers';
import type { IssueEvent } from '../store/contract/issues';
import type { SymbolicatedFrame } from '../core/stack/symbolicate';
import { eventFrames } from './eventFrames';
import type { IssueReads } from './issueViews';
import { countedIssueState } from './readIssue';

/** One stored report as an event: the client parsed at ingest, its stack's frames mapped by its release's maps. */
const eventOf = (report: IssueEvent, frames: SymbolicatedFrame[]): v.InferInput<typeof IssueEventsSchema>['items'][number] => ({
  id: report.id,
  received_at: report.received_at,
  page_url: report.page_url ?? null,
  browser: report.browser,
  os: report.os,
  device: report.device,
  release: report.release ?? null,
  environment: report.environment ?? null,
  message: report.error_message,
  stack: report.stack ?? null,
  count: Math.max(1, report.count ?? 1),
  causes: report.causes ?? [],
  frames,
});

/**
 * `GET /api/v1/sites/{site_key}/issues/{fingerprint}/events` (docs/issues.md): the issue's
 * reports, newest first, `limit` per page, each with its frames (eventFrames.ts, docs/source-maps.md);
 * undefined when it is none of the site's issues.
 *
 * @example
 * const page = await readIssueEvents(store, site, { fingerprint: '9f2c…', limit: 25 });
 */
export const readIssueEvents = async (
  store: IssueReads,
  { site_key }: { site_key: string },
  query: { fingerprint: string; limit: number; cursor?: string | undefined },
): Promise<v.InferInput<typeof IssueEventsSchema> | undefined> => {
  if (!(await countedIssueState(store, site_key, query.fingerprint))) return undefined;
  const { rows, next_cursor } = await store.issues.events(site_key, query.fingerprint, { cursor: query.cursor, limit: query.limit });
  const frames = await eventFrames(store.sourceMaps, site_key, rows);
  return { items: rows.map((row, index) => eventOf(row, frames[index]!)), next_cursor };
};
