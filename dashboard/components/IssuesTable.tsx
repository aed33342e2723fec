import type { IssueListItem } from '../../collector/routes/apiTypes';
import { clip, formatNumber, percent, segment, time } from '../format';
import { STATUS_LABELS } from '../issueChange';
import { changed, searchOf, type IssueSort, type IssueView } from '../issueQuery';
import { CspBadge } from './CspLink';
import { IssueButtons } from './IssueButtons';
import { IssueTrend } from './IssueTrend';

/** A column heading that sorts the list by it (most first: the collector sorts each so), as a link: a sort has its own URL. */
const SortHeading = ({ view, sort, label, title, numeric }: { view: IssueView; sort: IssueSort; label: string; title?: string; numeric?: boolean }) => {
  const current = view.sort == sort;
  return (
    <th scope="col" class={numeric ? 'num' : undefined} aria-sort={current ? 'descending' : undefined} title={title}>
      <a href={searchOf(changed(view, { sort }))} aria-current={current ? 'true' : undefined} class={current ? 'sorted' : undefined}>
        {label}
        {current ? ' ↓' : ''}
      </a>
    </th>
  );
};

/** A time as the dashboard writes it (format.ts `time`), free to wrap between its date and its hour, never inside either. */
const When = ({ iso }: { iso: string }) => {
  const [date, ...hour] = time(iso).split(' ');
  // One element: a phone's card lays a cell's children out as a grid (styles.css), one per column.
  return (
    <span>
      <span class="nowrap">{date}</span> <span class="nowrap">{hour.join(' ')}</span>
    </span>
  );
};

/**
 * The badges of an issue: "new" when it was first seen (all-time) inside the range shown,
 * "regressed" when it came back after being resolved, its status in the "All" tab, and the
 * directive of a CSP violation that explains a failed load (docs/issues.md, "A resource a CSP blocked").
 */
const Badges = ({ item, since, showStatus }: { item: IssueListItem; since: string; showStatus: boolean }) => (
  <>
    {Date.parse(item.first_seen) >= Date.parse(since) && <span class="badge new" data-testid="badge-new">New</span>}
    {item.regressed && <span class="badge regressed" data-testid="badge-regressed">Regressed</span>}
    {showStatus && item.status != 'unresolved' && <span class="badge">{STATUS_LABELS[item.status]}</span>}
    <CspBadge violation={item.csp_violation} />
  </>
);

/**
 * The site page's issues (docs/dashboard.md, "Issues"): a row per issue with its title, badges,
 * the range's occurrences, visitors and share of page views, its all-time first and last seen,
 * its latest release, its trend and its one-click changes. A phone shows each row as a card.
 *
 * @example
 * <IssuesTable siteKey="3f2a" view={view} since={list.since} items={list.items} onChanged={reload} />
 */
export const IssuesTable = ({ siteKey, view, since, items, onChanged }: { siteKey: string; view: IssueView; since: string; items: IssueListItem[]; onChanged: () => void }) => (
  <div class="scroll">
    <table class="stack issues" data-testid="error-groups">
      <thead>
        <tr>
          <th scope="col">Issue</th>
          <SortHeading view={view} sort="occurrences" label="Occurrences" numeric />
          <SortHeading view={view} sort="visitors" label="Visitors" numeric title="Distinct clients per UTC day, counted without cookies" />
          <th scope="col" class="num" title="The share of the range's page views on which it occurred">
            Page views
          </th>
          <SortHeading view={view} sort="first_seen" label="First seen" />
          <SortHeading view={view} sort="last_seen" label="Last seen" />
          <th scope="col">Release</th>
          <th scope="col">Trend</th>
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr data-fingerprint={item.fingerprint}>
            <th scope="row" class="message">
              <a href={`/sites/${segment(siteKey)}/errors/${segment(item.fingerprint)}${searchOf(view)}`}>{clip(item.title)}</a>{' '}
              <Badges item={item} since={since} showStatus={view.status == 'all'} />
              {item.explanation && <p class="explanation small">{clip(item.explanation, 400)}</p>}
              <div class="muted small">{clip(item.type, 80)}</div>
            </th>
            <td class="num" data-label="Occurrences" data-testid="count">{formatNumber(item.occurrences)}</td>
            <td class="num" data-label="Visitors" data-testid="visitors">{formatNumber(item.visitors)}</td>
            <td class="num" data-label="Page views" data-testid="share">{percent(item.page_views_share, 1)}</td>
            <td class="seen" data-label="First seen"><When iso={item.first_seen} /></td>
            <td class="seen" data-label="Last seen"><When iso={item.last_seen} /></td>
            <td class="token release" data-label="Release">{item.last_release === null ? '–' : <code>{clip(item.last_release, 40)}</code>}</td>
            <td data-label="Trend">
              <IssueTrend trend={item.trend} />
            </td>
            <td data-label="Actions">
              <IssueButtons siteKey={siteKey} fingerprint={item.fingerprint} status={item.status} label={clip(item.title, 80)} onChanged={onChanged} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  </div>
);
