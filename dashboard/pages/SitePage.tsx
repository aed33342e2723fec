import { useState } from 'preact/hooks';
import { useApi } from '../api';
import { apiPath } from '../../collector/routes/apiPath';
import { Activity } from '../components/Activity';
import { CspGroups } from '../components/CspGroups';
import { DeviceSwitch } from '../components/DeviceSwitch';
import { Issues } from '../components/Issues';
import { Layout } from '../components/Layout';
import { RangePicker } from '../components/RangePicker';
import { Status } from '../components/Status';
import { useRenderedMark, SITE_COMPLETE, SITE_RENDERED } from '../components/useRenderedMark';
import { Vitals } from '../components/Vitals';
import { clip, formatNumber, metricValue, segment } from '../format';
import { issueViewOf } from '../issueQuery';
import { siteReads } from '../siteReads';
import { vitalsDeviceOf } from '../vitalsDevice';
import type { CspGroup, PageVitals } from '../../collector/routes/apiTypes';

const Empty = ({ siteKey }: { siteKey: string }) => {
  const setup = useApi(apiPath('/api/v1/sites/:site_key/setup', { site_key: siteKey }));
  return (
    <section class="empty" aria-labelledby="empty-title">
      <h2 id="empty-title">Nothing received in this range</h2>
      <p>Paste this script tag into every page of the site; reports appear here as they arrive.</p>
      {setup.state == 'ready' ? <pre class="snippet"><code>{setup.data.snippet}</code></pre> : <Status loaded={setup} />}
      <p>
        <a href={`/sites/${segment(siteKey)}/setup`}>Setup: CSP sources, allowed origins, integrations</a>
      </p>
    </section>
  );
};

const Csp = ({ siteKey, groups }: { siteKey: string; groups: CspGroup[] }) => (
  <section aria-labelledby="csp-title">
    <h2 id="csp-title">CSP violations</h2>
    {!groups.length ? (
      <p class="muted">No CSP violations in this range.</p>
    ) : (
      <>
        <CspGroups groups={groups} />
        <p>
          <a href={`/sites/${segment(siteKey)}/setup#csp`}>The suggested policy for these violations</a>
        </p>
      </>
    )}
  </section>
);

const Pages = ({ pages }: { pages: PageVitals[] }) => (
  <section aria-labelledby="pages-title">
    <h2 id="pages-title">Pages</h2>
    <p class="muted small">By route: the query dropped, ids as :id, the site's route patterns first.</p>
    {!pages.length ? (
      <p class="muted">No page views with Web Vitals in this range.</p>
    ) : (
      <div class="scroll">
        <table class="stack" data-testid="pages">
          <thead>
            <tr>
              <th scope="col">Route</th>
              <th scope="col" class="num">Views</th>
              {['LCP', 'INP', 'CLS'].map((name) => (
                <th scope="col" class="num">{name} p75</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {pages.map((page) => (
              <tr>
                {/* Stored URLs are text, never links: a javascript: URL must not become clickable. One URL of the route under it. */}
                <th scope="row" class="url">
                  {clip(page.route) || '(no route)'}
                  {page.page_url != page.route && <span class="muted small example">{clip(page.page_url) || '(no URL)'}</span>}
                </th>
                <td class="num" data-label="Views">{formatNumber(page.sessions)}</td>
                {['LCP', 'INP', 'CLS'].map((name) => {
                  const metric = page.metrics[name];
                  return (
                    <td class={`num ${metric?.rating ?? ''}`} data-label={`${name} p75`}>
                      {metricValue(name, metric?.p75)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}
  </section>
);

/** A section whose data is still on its way: its heading, so the page's outline is there at once. */
const Pending = ({ id, title }: { id: string; title: string }) => (
  <section aria-labelledby={id}>
    <h2 id={id}>{title}</h2>
    <Status loaded={{ state: 'loading' }} />
  </section>
);

/**
 * `/sites/{site_key}`: one site over a range (24 h, 7 d, 30 d): totals beside the previous range's and
 * their chart (components/Activity.tsx),
 * its issues (tabs, search, filters, sort and page in the URL's query: issueQuery.ts), CSP violations by directive and blocked host, the Web Vitals, and pages
 * by route, both of one kind of device where the device switch says (vitalsDevice.ts).
 * Each section shows as soon as its read is answered (they are answered in turn: siteReads.ts),
 * so what is above the fold does not wait for the Web Vitals and the pages below it.
 *
 * @example
 * <SitePage email="ann@shop.example" siteKey="3f2a…" />
 */
export const SitePage = ({ email, siteKey }: { email: string | undefined; siteKey: string }) => {
  const view = issueViewOf(location.search);
  const reads = siteReads(siteKey, location.search);
  // A change of an issue's status reads the list again (the row may leave its tab).
  const [changes, setChanges] = useState(0);
  const sites = useApi(reads.sites);
  const daily = useApi(reads.daily);
  const issues = useApi(reads.issues, changes);
  // Below the fold: asked once the first screen's reads are answered (as boot.ts does on a first load).
  const below = daily.state != 'loading' && issues.state != 'loading';
  const csp = useApi(below ? reads.csp : null);
  const vitals = useApi(below ? reads.vitals : null);
  const pages = useApi(below ? reads.pages : null);
  const name = sites.state == 'ready' ? (sites.data.data.find((site) => site.site_key == siteKey)?.name ?? siteKey) : siteKey;
  const named = sites.state != 'loading';
  // bench/dashboard.mjs: interactive once the first screen (name, activity, errors) is drawn; complete once every section is.
  useRenderedMark(SITE_RENDERED, named && daily.state == 'ready' && issues.state == 'ready');
  useRenderedMark(SITE_COMPLETE, named && [daily, issues, csp, vitals, pages].every((loaded) => loaded.state == 'ready'));
  // One refusal (signed out, another site's page) says so once, not once per section; the issues
  // list says its own (a filter the collector refused) where it is, with the filters to change it.
  const refused = (loaded: { state: string; failure?: { status: number } }) => loaded.state == 'failed' && (loaded.failure?.status == 401 || loaded.failure?.status == 403);
  const failed = [daily, csp, vitals, pages].find((loaded) => loaded.state == 'failed') ?? (refused(issues) ? issues : undefined);
  const body = () => {
    if (failed) return <Status loaded={failed as Parameters<typeof Status>[0]['loaded']} />;
    if (daily.state != 'ready') return <Status loaded={{ state: 'loading' }} />;
    const { totals } = daily.data;
    if (!totals.errors && !totals.csp && !totals.page_views) return <Empty siteKey={siteKey} />;
    return (
      <>
        <Activity view={daily.data} range={view.range} />
        <Issues siteKey={siteKey} view={view} list={issues} onChanged={() => setChanges((count) => count + 1)} />
        {csp.state == 'ready' ? <Csp siteKey={siteKey} groups={csp.data.data} /> : <Pending id="csp-title" title="CSP violations" />}
        <section aria-labelledby="vitals-title">
          <h2 id="vitals-title">Web Vitals</h2>
          <DeviceSwitch current={vitalsDeviceOf(location.search)} />
          {vitals.state == 'ready' ? <Vitals vitals={vitals.data.vitals} /> : <Status loaded={{ state: 'loading' }} />}
        </section>
        {pages.state == 'ready' ? <Pages pages={pages.data.data} /> : <Pending id="pages-title" title="Pages" />}
      </>
    );
  };
  return (
    <Layout email={email} title={name}>
      <div class="page-head">
        <h1>{clip(name, 120)}</h1>
        <nav class="site-links" aria-label="Site">
          <a href={`/sites/${segment(siteKey)}/alerts`}>Alerts</a>
          <a href={`/sites/${segment(siteKey)}/setup`}>Setup</a>
        </nav>
      </div>
      <RangePicker current={view.range} />
      {body()}
    </Layout>
  );
};
