import { useApi } from '../api';
import { apiPath } from '../../collector/routes/apiPath';
import { Layout } from '../components/Layout';
import { Status } from '../components/Status';
import type { OpenApiDocument } from '../../collector/routes/apiTypes';

type Operation = OpenApiDocument['paths'][string][string];

const AUTH: Record<string, string> = { bearer: 'API key', apiKeyHeader: 'API key', session: 'session', agentToken: 'agent token' };

/** A path may break after a slash, and nowhere else: a segment (`{fingerprint}`) is never cut. */
const pathWithBreaks = (path: string) =>
  path.split('/').map((part, index, parts) => (index < parts.length - 1 ? [part, '/', <wbr />] : part));

const Reference = () => {
  const document = useApi(apiPath('/api/openapi.json', {}));
  if (document.state != 'ready') return <Status loaded={document} />;
  const byTag = new Map<string, Array<{ method: string; path: string; operation: Operation }>>();
  for (const [path, operations] of Object.entries(document.data.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const tag = operation.tags?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method: method.toUpperCase(), path, operation }]);
    }
  }
  return (
    <>
      {[...byTag].map(([tag, operations]) => (
        <section aria-labelledby={`tag-${tag.replace(/\W+/g, '-')}`}>
          <h3 id={`tag-${tag.replace(/\W+/g, '-')}`}>{tag}</h3>
          <div class="scroll">
            <table class="reference stack">
              <thead>
                <tr>
                  <th scope="col">Method</th>
                  <th scope="col">Path</th>
                  <th scope="col">Does</th>
                  <th scope="col">Credentials</th>
                </tr>
              </thead>
              <tbody>
                {operations.map(({ method, path, operation }) => (
                  <tr>
                    <td class="code method" data-label="Method">{method}</td>
                    <td class="code path" data-label="Path">{pathWithBreaks(path)}</td>
                    <td data-label="Does">{operation.summary}</td>
                    <td data-label="Credentials">{[...new Set((operation.security ?? []).flatMap((scheme) => Object.keys(scheme).map((name) => AUTH[name] ?? name)))].join(', ') || 'none'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </>
  );
};

/**
 * `/docs`: how to set up the beacon, the collector and the integrations, and the API reference
 * rendered from the collector's own `/api/openapi.json` (so it names exactly what is served).
 *
 * @example
 * <DocsPage email={undefined} />
 */
export const DocsPage = ({ email }: { email?: string | undefined }) => (
  <Layout email={email} title="Docs">
    <h1>Documentation</h1>
    <section aria-labelledby="setup-title">
      <h2 id="setup-title">Set up</h2>
      <ol class="steps">
        <li>
          Run the collector: <code>npx sitebeacon serve --public-url https://collector.example</code> (SQLite in <code>./data/</code>; add{' '}
          <code>--database-url postgres://…</code> for several processes).
        </li>
        <li>
          Create a site for the origins that will report: <code>npx sitebeacon site add --origin https://shop.example --name Shop</code>. It prints the site
          key and the script tag.
        </li>
        <li>
          Paste the script tag into every page. If the pages send a Content-Security-Policy, allow the collector in <code>script-src</code> and{' '}
          <code>connect-src</code> (the site's Setup page lists the exact sources).
        </li>
        <li>
          Give people access: <code>npx sitebeacon user add --email you@example.com [--site SITE_KEY]</code> prints a password once; without{' '}
          <code>--site</code> the user sees every site.
        </li>
        <li>
          Scripts read the same data with an API key: <code>npx sitebeacon key create [--site SITE_KEY]</code>, then{' '}
          <code>Authorization: Bearer KEY</code> on <code>/api/v1/sites/…</code>.
        </li>
        <li>
          Reports not arriving? A site's setup page checks the ingest host and the main host from your browser; for the cause of a
          failure, run <code>npx sitebeacon check https://collector.example/api --site SITE_KEY --page https://shop.example/</code> on the
          sending machine.
        </li>
      </ol>
      <h3>Integrations</h3>
      <p>
        The WordPress plugin registers with <code>POST /api/v1/wordpress/register</code> and an API key; Linux server agents with{' '}
        <code>POST /api/v1/server-agents/register</code>. Both are listed on each site's Setup page.
      </p>
    </section>
    <section aria-labelledby="reference-title">
      <h2 id="reference-title">API reference</h2>
      <p>
        From <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1), generated from the collector's route table.
      </p>
      <Reference />
    </section>
  </Layout>
);
