import { useApi } from '../api';
import { apiPath } from '../../collector/routes/apiPath';
import { Chart } from '../components/Chart';
import { ErrorCauses } from '../components/ErrorCauses';
import { Layout } from '../components/Layout';
import { RangePicker } from '../components/RangePicker';
import { Status } from '../components/Status';
import { clip, formatNumber, rangeOf, segment, sinceOf, time } from '../format';

/**
 * `/sites/{site_key}/errors/{fingerprint}`: one error group: its counts, the latest stack and its causes,
 * occurrences over time, the pages and the browsers it happened in.
 *
 * @example
 * <ErrorGroupPage email="ann@shop.example" siteKey="3f2a…" fingerprint="9b1c…" />
 */
export const ErrorGroupPage = ({ email, siteKey, fingerprint }: { email: string | undefined; siteKey: string; fingerprint: string }) => {
  const range = location.search ? rangeOf(location.search) : '30d';
  const detail = useApi(apiPath('/api/v1/sites/:site_key/error-groups/:fingerprint', { site_key: siteKey, fingerprint }, { since: sinceOf(range) }));
  if (detail.state != 'ready') {
    return (
      <Layout email={email} title="Error">
        <p>
          <a href={`/sites/${segment(siteKey)}`}>← Back to the site</a>
        </p>
        <RangePicker current={range} />
        <Status loaded={detail} />
      </Layout>
    );
  }
  const { group, latest, daily, pages, browsers } = detail.data;
  const title = `${group.error_name ? `${group.error_name}: ` : ''}${group.error_message}`;
  return (
    <Layout email={email} title={title.slice(0, 80)}>
      <p>
        <a href={`/sites/${segment(siteKey)}`}>← Back to the site</a>
      </p>
      <h1 class="message">{title}</h1>
      <RangePicker current={range} />
      <p class="totals" data-testid="group-totals">
        <span><strong data-testid="count">{formatNumber(group.count)}</strong> occurrences</span> · <span><strong>{formatNumber(group.reports)}</strong> reports</span> ·{' '}
        <span><strong data-testid="visitors">{formatNumber(group.visitors)}</strong> visitors</span> · first seen {time(group.first_seen)} · last seen {time(group.last_seen)} ·{' '}
        <span class="muted">{group.error_type}</span>
      </p>
      <section aria-labelledby="stack-title">
        <h2 id="stack-title">Latest stack</h2>
        {latest?.stack ? <pre class="stack" tabIndex={0}>{latest.stack}</pre> : <p class="muted">The latest report has no stack.</p>}
        <ErrorCauses causes={latest?.causes} />
        {latest && (
          <dl class="facts">
            <dt>Received</dt>
            <dd>{time(latest.received_at)}</dd>
            <dt>Page</dt>
            <dd class="url">{latest.page_url ?? '–'}</dd>
            <dt>Source</dt>
            <dd class="url">{latest.source_url ? `${latest.source_url}${latest.line ? `:${latest.line}:${latest.column ?? 0}` : ''}` : '–'}</dd>
            <dt>Browser</dt>
            <dd class="url">{latest.user_agent ?? '–'}</dd>
          </dl>
        )}
      </section>
      <section aria-labelledby="over-time-title">
        <h2 id="over-time-title">Occurrences over time</h2>
        <Chart
          description={`Occurrences per day: ${daily.map((day) => `${day.day} ${formatNumber(day.count)}`).join(', ')}`}
          days={daily.map((day) => day.day)}
          lines={[{ label: 'Occurrences', values: daily.map((day) => day.count), color: '#b42318' }]}
        />
      </section>
      <div class="columns">
        <section aria-labelledby="pages-title">
          <h2 id="pages-title">Pages</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col" class="num">Reports</th>
              </tr>
            </thead>
            <tbody>
              {pages.map((page) => (
                <tr>
                  <td class="url">{clip(page.page_url) || '(no URL)'}</td>
                  <td class="num">{formatNumber(page.reports)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section aria-labelledby="browsers-title">
          <h2 id="browsers-title">Browsers</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Browser · OS · device</th>
                <th scope="col" class="num">Reports</th>
              </tr>
            </thead>
            <tbody>
              {browsers.map((browser) => (
                <tr>
                  <td>{browser.browser}</td>
                  <td class="num">{formatNumber(browser.reports)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>
    </Layout>
  );
};
