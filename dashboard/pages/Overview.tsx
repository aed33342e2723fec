import { useApi } from '../api';
import { apiPath } from '../../collector/routes/apiPath';
import { Chart } from '../components/Chart';
import { Layout } from '../components/Layout';
import { Status } from '../components/Status';
import { change, PREVIOUS } from '../compare';
import { clip, formatNumber, segment } from '../format';
import { isCollectorSite } from '../isCollectorSite';
import type { DailyPoint, Site } from '../../collector/routes/apiTypes';

const DAY = 86_400_000;
const total = (days: DailyPoint[], field: 'errors' | 'csp' | 'page_views') => days.reduce((sum, day) => sum + day[field], 0);
const KINDS = [
  ['errors', 'Errors', '#b42318'],
  ['csp', 'CSP violations', '#7a4d00'],
  ['page_views', 'Page views', '#1f5f99'],
] as const;

// Rounded to the minute: each site row asks for the same two ranges. No p75 here: it is the costly part.
const since = (ms: number) => new Date(Math.floor((Date.now() - ms) / 60_000) * 60_000).toISOString();

/** The last 24 hours' change on the 24 before (compare.ts), its words for screen readers. */
const Change = ({ current, previous, field }: { current: number; previous: number; field: string }) => {
  const { text, direction } = change(current, previous);
  return (
    <span class={`change ${direction}`} data-testid={`${field}-24h-change`}>
      ({text}
      <span class="visually-hidden"> on {PREVIOUS['24h']}</span>)
    </span>
  );
};

const SiteRow = ({ site }: { site: Site }) => {
  const week = useApi(apiPath('/api/v1/sites/:site_key/daily', site, { since: since(7 * DAY), p75: false }));
  const day = useApi(apiPath('/api/v1/sites/:site_key/daily', site, { since: since(DAY), p75: false }));
  return (
    <tr>
      <th scope="row">
        <a href={`/sites/${segment(site.site_key)}`}>{clip(site.name, 120)}</a>
        <div class="muted key">{site.site_key}</div>
      </th>
      {KINDS.map(([field, label, color]) => (
        <td data-label={label}>
          {week.state == 'ready' && day.state == 'ready' ? (
            <div class="trend">
              <span class="figures">
                <strong data-testid={`${field}-24h`}>{formatNumber(total(day.data.days, field))}</strong> <span class="muted">24 h</span>{' '}
                <Change current={day.data.totals[field]} previous={day.data.previous[field]} field={field} /> ·{' '}
                <span data-testid={`${field}-7d`}>{formatNumber(total(week.data.days, field))}</span> <span class="muted">7 d</span>
              </span>
              <Chart
                small
                description={`${label} per day over 7 days: ${week.data.days.map((point) => formatNumber(point[field])).join(', ')}`}
                days={week.data.days.map((point) => point.day)}
                lines={[{ label, values: week.data.days.map((point) => point[field]), color }]}
              />
            </div>
          ) : (
            <span class="muted">…</span>
          )}
        </td>
      ))}
    </tr>
  );
};

/** One list of sites: a row each, with their last 24 hours and 7 days; stacked as cards on a phone. */
const SiteTable = ({ sites, caption, testId }: { sites: Site[]; caption: string; testId: string }) => (
  <div class="scroll">
    <table class="sites stack" data-testid={testId}>
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Site</th>
          {KINDS.map(([, label]) => (
            <th scope="col">{label}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {sites.map((site) => (
          <SiteRow key={site.site_key} site={site} />
        ))}
      </tbody>
    </table>
  </div>
);

/**
 * `/` signed in: the sites this user may see, with the last 24 hours and 7 days of errors, CSP
 * violations and page views, each with a 7-day trend (README, "The dashboard"). The owner's sites
 * come first; the sites the collector keeps for itself (isCollectorSite.ts) follow in a section of
 * their own, so that they are not taken for one of the owner's.
 *
 * @example
 * <Overview email="ann@shop.example" />
 */
export const Overview = ({ email }: { email: string | undefined }) => {
  const sites = useApi(apiPath('/api/v1/sites', {}));
  const own = sites.state == 'ready' ? sites.data.data.filter((site) => !isCollectorSite(site)) : [];
  const collector = sites.state == 'ready' ? sites.data.data.filter(isCollectorSite) : [];
  return (
    <Layout email={email} title="Sites">
      <h1>Sites</h1>
      {sites.state != 'ready' ? (
        <Status loaded={sites} />
      ) : (
        <>
          {own.length ? (
            <SiteTable sites={own} caption="Your sites with their last 24 hours and 7 days" testId="own-sites" />
          ) : (
            <p>
              No site yet. Create one on the collector's machine: <code>npx sitebeacon site add --origin https://your.site</code>
            </p>
          )}
          {!!collector.length && (
            <section aria-labelledby="collector-sites-title" data-testid="collector-sites">
              <h2 id="collector-sites-title">This collector</h2>
              <p class="muted small">
                Sites the collector keeps for itself: its dashboard's own CSP violations, and the default site that reports sent without a site key go to.
              </p>
              <SiteTable sites={collector} caption="This collector's own sites with their last 24 hours and 7 days" testId="collector-site-list" />
            </section>
          )}
        </>
      )}
    </Layout>
  );
};
