import type { ReadApi } from '../../collector/routes/apiTypes';
import type { Loaded } from '../api';
import { STATUS_LABELS } from '../issueChange';
import { changed, nextPage, pageNumber, previousPage, searchOf, STATUSES, type IssueView } from '../issueQuery';
import { BotsSwitch } from './BotsSwitch';
import { IssueFilters } from './IssueFilters';
import { IssuesTable } from './IssuesTable';
import { Status } from './Status';

type IssueList = ReadApi['/api/v1/sites/:site_key/issues']['answer'];

/** The status tabs (Unresolved first, the default), each a link: a tab has its own URL. */
const Tabs = ({ view }: { view: IssueView }) => (
  <nav class="tabs" aria-label="Issue status">
    {STATUSES.map((status) => (
      <a href={searchOf(changed(view, { status }))} aria-current={status == view.status ? 'page' : undefined} class={status == view.status ? 'current' : undefined}>
        {STATUS_LABELS[status]}
      </a>
    ))}
  </nav>
);

/** "Previous" and "Next page" by cursor, as links (issueQuery.ts keeps the cursors behind in the URL). */
const Pager = ({ view, next }: { view: IssueView; next: string | null }) => {
  const previous = previousPage(view);
  if (!previous && !next) return null;
  return (
    <nav class="pager" aria-label="Issue pages">
      {previous ? <a href={searchOf(previous)}>← Previous</a> : <span />}
      <span class="muted" data-testid="issues-page">
        Page {pageNumber(view)}
      </span>
      {next ? <a href={searchOf(nextPage(view, next))}>Next page →</a> : <span />}
    </nav>
  );
};

/** What an empty list says: which tab and whether filters narrowed it. */
const nothing = (view: IssueView) => {
  const which = view.status == 'all' ? '' : ` ${STATUS_LABELS[view.status].toLowerCase()}`;
  const filtered = view.q || Object.keys(view.filters).length ? ' matching the search and filters' : '';
  return `No${which} issues in this range${filtered}.`;
};

/**
 * The site page's "Issues" section (docs/dashboard.md, "Issues"): status tabs, search and
 * filters, the list sorted by a column, paged by cursor; each row resolves or ignores its issue,
 * after which `onChanged` reads the list again.
 *
 * @example
 * <Issues siteKey="3f2a" view={issueViewOf(location.search)} list={issues} onChanged={reload} />
 */
export const Issues = ({ siteKey, view, list, onChanged }: { siteKey: string; view: IssueView; list: Loaded<IssueList>; onChanged: () => void }) => {
  const items = list.state == 'ready' ? list.data.items : [];
  const releases = [...new Set(items.flatMap((item) => [item.last_release, item.first_release]).filter((release): release is string => !!release))];
  return (
    <section aria-labelledby="errors-title">
      <h2 id="errors-title">Issues</h2>
      <Tabs view={view} />
      <IssueFilters view={view} releases={releases} />
      <BotsSwitch view={view} botReports={list.state == 'ready' ? list.data.bot_reports : undefined} />
      {list.state != 'ready' ? (
        <Status loaded={list} />
      ) : !items.length ? (
        <p class="muted" data-testid="no-issues">
          {nothing(view)}
        </p>
      ) : (
        <IssuesTable siteKey={siteKey} view={view} since={list.data.since} items={items} onChanged={onChanged} />
      )}
      {list.state == 'ready' && <Pager view={view} next={list.data.next_cursor} />}
    </section>
  );
};
