import { useState } from 'preact/hooks';
import { useApi } from '../api';
import { apiPath } from '../../collector/routes/apiPath';
import { ConnectivityCheck } from '../components/ConnectivityCheck';
import { Layout } from '../components/Layout';
import { SnippetChoice } from '../components/SnippetChoice';
import { Status } from '../components/Status';
import { clip, formatNumber, segment, time } from '../format';
import type { Setup } from '../../collector/routes/apiTypes';

const Suggestion = ({ project }: { project: Setup['csp_projects'][number] }) => {
  const suggestion = useApi(apiPath('/api/v1/csp-projects/:id/suggested-policy', { id: String(project.id) }));
  return (
    <li>
      <h4>
        {clip(project.name, 120)} <span class="muted">({project.mode}, changed {time(project.updated_at)})</span>
      </h4>
      {suggestion.state != 'ready' ? (
        <Status loaded={suggestion} />
      ) : (
        <>
          <p class="small muted">Suggested policy, from {formatNumber(suggestion.data.based_on_reports)} stored violation reports:</p>
          <pre tabIndex={0} data-testid={`suggestion-${project.id}`}>
            <code>{suggestion.data.policy}</code>
          </pre>
          {!!suggestion.data.withheld?.length && (
            <p class="small">
              Withheld (yours to decide):{' '}
              {suggestion.data.withheld.map((item) => `${item.directive} ${item.source}`).join(', ')}
            </p>
          )}
        </>
      )}
    </li>
  );
};

/**
 * `/sites/{site_key}/setup`: the script tag to paste (with a copy button), the CSP sources a page
 * needs, the allowed origins, the browser-side connectivity check (components/ConnectivityCheck.tsx), and the site's WordPress install, server agents
 * and CSP projects (README, "The dashboard"; docs/integrations.md).
 *
 * @example
 * <SetupPage email="ann@shop.example" siteKey="3f2a…" />
 */
export const SetupPage = ({ email, siteKey }: { email: string | undefined; siteKey: string }) => {
  // A new version after the browser's test report was accepted: the last check then shows it.
  const [version, setVersion] = useState(0);
  const setup = useApi(apiPath('/api/v1/sites/:site_key/setup', { site_key: siteKey }), version);
  if (setup.state != 'ready') {
    return (
      <Layout email={email} title="Setup">
        <Status loaded={setup} />
      </Layout>
    );
  }
  const site = setup.data;
  return (
    <Layout email={email} title={`Setup · ${site.name}`}>
      <p>
        <a href={`/sites/${segment(siteKey)}`}>← Back to {clip(site.name, 120)}</a>
      </p>
      <h1>Set up {clip(site.name, 120)}</h1>
      <section aria-labelledby="snippet-title">
        <h2 id="snippet-title">Script tag</h2>
        <SnippetChoice setup={site} />
      </section>
      <section aria-labelledby="csp-title" id="csp">
        <h2 id="csp-title">Content Security Policy</h2>
        <p>If the site sends a CSP, it must allow:</p>
        <ul>
          {Object.entries(site.csp_sources).map(([directive, sources]) => (
            <li>
              <code>
                {directive} {sources.join(' ')}
              </code>
            </li>
          ))}
        </ul>
        {site.csp_projects.length ? (
          <>
            <h3>CSP projects</h3>
            <ul class="projects">
              {site.csp_projects.map((project) => (
                <Suggestion key={project.id} project={project} />
              ))}
            </ul>
          </>
        ) : (
          <p class="muted">No CSP project: create one with POST /api/v1/csp-projects to get a suggested policy from the violations.</p>
        )}
      </section>
      <section aria-labelledby="origins-title">
        <h2 id="origins-title">Allowed origins</h2>
        {site.allowed_origins.length ? (
          <ul>
            {site.allowed_origins.map((origin) => (
              <li class="url">{origin}</li>
            ))}
          </ul>
        ) : (
          <p class="muted">None: browsers cannot report to this site.</p>
        )}
      </section>
      <section aria-labelledby="connectivity-title">
        <h2 id="connectivity-title">Connectivity</h2>
        <p>
          Ingest host (the collection API): <code>{site.api_base}</code>
          <br />
          Main host (the WordPress plugin's fallback, server agents): <code>{site.legacy_api_base}</code>
        </p>
        <p data-testid="last-check">
          {site.last_connectivity_check ? (
            `Last connectivity check received ${time(site.last_connectivity_check.at)}: "${clip(site.last_connectivity_check.message, 120)}".`
          ) : (
            <>
              No connectivity check received in the last 30 days (from this page, or <code>sitebeacon check --site</code>).
            </>
          )}
        </p>
        <ConnectivityCheck
          target={{ siteKey: site.site_key, apiBase: site.api_base, mainApiBase: site.legacy_api_base }}
          onSubmitted={() => setVersion((value) => value + 1)}
        />
        <p class="small muted">
          A browser does not say why a request failed. For the exact cause (DNS, firewall, certificate, proxy), run{' '}
          <code>sitebeacon check {site.api_base} --site {site.site_key}</code> on a machine of the network that fails.
        </p>
      </section>
      <section aria-labelledby="integrations-title">
        <h2 id="integrations-title">Integrations</h2>
        <h3>WordPress</h3>
        {site.wordpress ? (
          <p>
            <span class="url">{site.wordpress.site_url}</span> ({site.wordpress.name}), plugin {site.wordpress.plugin_version ?? '?'}, last check-in{' '}
            {time(site.wordpress.last_check_in_at)}
          </p>
        ) : (
          <p class="muted">No WordPress install registered.</p>
        )}
        <h3>Server agents</h3>
        {site.agents.length ? (
          <ul>
            {site.agents.map((agent) => (
              <li>
                {agent.hostname} <span class="muted">({agent.os}/{agent.arch}, agent {agent.agent_version}, last heartbeat {time(agent.last_heartbeat_at)})</span>
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">No server agent registered.</p>
        )}
      </section>
    </Layout>
  );
};
