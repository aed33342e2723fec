import { useState } from 'preact/hooks';
import { useApi } from '../api';
import { Chart } from '../components/Chart';
import { withFilling } from '../components/chartLine';
import { BotsSwitch } from '../components/BotsSwitch';
import { CspLink } from '../components/CspLink';
import { IssueBreakdowns } from '../components/IssueBreakdowns';
import { IssueEvents } from '../components/IssueEvents';
import { IssueStatus } from '../components/IssueStatus';
import { bucketLabel } from '../components/IssueTrend';
import { Layout } from '../components/Layout';
import { RangePicker } from '../components/RangePicker';
import { Status } from '../components/Status';
import { clip, formatNumber, percent, segment, time } from '../format';
import { issuePaths, issueViewOf, searchOf, type IssueView } from '../issueQuery';

/** The filters the page's counts are narrowed to, in words, or nothing. */
const Narrowed = ({ view }: { view: IssueView }) => {
  const filters = Object.entries(view.filters);
  if (!filters.length) return null;
  return <p class="muted small">Counted over the reports with {filters.map(([name, value]) => `${name} ${clip(value, 80)}`).join(', ')}.</p>;
};

/**
 * `/sites/{site_key}/errors/{fingerprint}`: one issue (docs/issues.md) over the range and filters
 * of the page's query, the site page's: its status and the owner's changes, the range's counts, its
 * all-time first and last seen and releases, its trend, its events page by page (the latest's stack unfolded)
 * and its reports by browser, OS, device, page and release. "Back to the issues" keeps the query.
 *
 * @example
 * <IssuePage email="ann@shop.example" siteKey="3f2a…" fingerprint="9b1c…" />
 */
export const IssuePage = ({ email, siteKey, fingerprint }: { email: string | undefined; siteKey: string; fingerprint: string }) => {
  const view = issueViewOf(location.search);
  const paths = issuePaths(siteKey, fingerprint, view);
  // A change of status reads the issue and its events again.
  const [changes, setChanges] = useState(0);
  const detail = useApi(paths.issue, changes);
  // The breakdowns are below the fold: asked once the issue is answered.
  const tags = useApi(detail.state == 'loading' ? null : paths.tags);
  const back = (
    <p>
      <a href={`/sites/${segment(siteKey)}${searchOf(view)}`}>← Back to the issues</a>
    </p>
  );
  if (detail.state != 'ready') {
    return (
      <Layout email={email} title="Issue">
        {back}
        <RangePicker current={view.range} />
        <Status loaded={detail} />
      </Layout>
    );
  }
  const issue = detail.data;
  const { buckets, interval } = issue.trend;
  const releases = tags.state == 'ready' ? tags.data.release.map(({ value }) => value).filter(Boolean) : [];
  return (
    <Layout email={email} title={issue.title.slice(0, 80)}>
      {back}
      <h1 class="message">{issue.title}</h1>
      {issue.explanation && <p class="explanation">{issue.explanation}</p>}
      {issue.csp_violation && <CspLink siteKey={siteKey} violation={issue.csp_violation} />}
      <RangePicker current={view.range} />
      <p class="totals" data-testid="group-totals">
        <span><strong data-testid="count">{formatNumber(issue.occurrences)}</strong> occurrences</span> ·{' '}
        <span><strong data-testid="visitors">{formatNumber(issue.visitors)}</strong> visitors</span> ·{' '}
        <span><strong>{percent(issue.page_views_share, 1)}</strong> of page views</span>
      </p>
      <Narrowed view={view} />
      <BotsSwitch view={view} botReports={issue.bot_reports} />
      <dl class="facts" data-testid="issue-facts">
        <dt>First seen</dt>
        <dd>{time(issue.first_seen)}</dd>
        <dt>Last seen</dt>
        <dd>{time(issue.last_seen)}</dd>
        <dt>First release</dt>
        <dd class="code">{issue.first_release ?? '–'}</dd>
        <dt>Last release</dt>
        <dd class="code">{issue.last_release ?? '–'}</dd>
        <dt>Type</dt>
        <dd>{issue.type}</dd>
      </dl>
      <IssueStatus siteKey={siteKey} issue={issue} releases={releases} onChanged={() => setChanges((count) => count + 1)} />
      <section aria-labelledby="over-time-title">
        <h2 id="over-time-title">Occurrences over time</h2>
        <Chart
          hourly={interval == 'hour'}
          description={`Occurrences per ${interval} (UTC): ${buckets.map((bucket) => `${bucketLabel(bucket.start, interval)} ${formatNumber(bucket.count)}${bucket.incomplete ? ' so far' : ''}`).join(', ')}`}
          days={buckets.map((bucket) => (interval == 'hour' ? bucket.start : bucket.start.slice(0, 10)))}
          lines={withFilling({ label: 'Occurrences', values: buckets.map((bucket) => bucket.count), color: '#b42318' }, !!buckets.at(-1)?.incomplete, '#e8a39c')}
        />
      </section>
      <IssueEvents siteKey={siteKey} fingerprint={fingerprint} version={changes} />
      <section aria-labelledby="breakdowns-title">
        <h2 id="breakdowns-title">Breakdowns</h2>
        {tags.state == 'ready' ? <IssueBreakdowns siteKey={siteKey} view={view} tags={tags.data} /> : <Status loaded={tags.state == 'failed' ? tags : { state: 'loading' }} />}
      </section>
    </Layout>
  );
};
