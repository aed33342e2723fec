import { useState } from 'preact/hooks';
import { useApi } from '../api';
import { apiPath } from '../../collector/routes/apiPath';
import { AlertDeliveries } from '../components/AlertDeliveries';
import { AlertRuleForm } from '../components/AlertRuleForm';
import { AlertRules } from '../components/AlertRules';
import { Layout } from '../components/Layout';
import { Status } from '../components/Status';
import { clip, segment } from '../format';

/**
 * `/sites/{site_key}/alerts` (docs/alerts.md; README, "The dashboard"): the site's alert rules with
 * "Send a test" and "Remove", the form to add one, and the latest deliveries with their status and
 * error. Every change reads the rules and the deliveries again.
 *
 * @example
 * <AlertsPage email="ann@shop.example" siteKey="3f2a…" />
 */
export const AlertsPage = ({ email, siteKey }: { email: string | undefined; siteKey: string }) => {
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((value) => value + 1);
  const sites = useApi(apiPath('/api/v1/sites', {}));
  const rules = useApi(apiPath('/api/v1/sites/:site_key/alerts', { site_key: siteKey }), version);
  const deliveries = useApi(apiPath('/api/v1/sites/:site_key/alerts/deliveries', { site_key: siteKey }, { limit: 50 }), version);
  const name = (sites.state == 'ready' && sites.data.data.find((site) => site.site_key == siteKey)?.name) || siteKey;
  return (
    <Layout email={email} title={`Alerts · ${name}`}>
      <p>
        <a href={`/sites/${segment(siteKey)}`}>← Back to {clip(name, 120)}</a>
      </p>
      <h1>Alerts of {clip(name, 120)}</h1>
      <section aria-labelledby="rules-title">
        <h2 id="rules-title">Rules</h2>
        {rules.state == 'ready' ? <AlertRules siteKey={siteKey} rules={rules.data.data} onChanged={reload} /> : <Status loaded={rules} />}
        <p class="small muted">
          Besides these, every site mails a new issue and a regression to its dashboard users who turned alert mail on (<code>sitebeacon user alert-mail</code>).
        </p>
      </section>
      <section aria-labelledby="add-title">
        <h2 id="add-title">Add a rule</h2>
        <AlertRuleForm siteKey={siteKey} onAdded={reload} />
      </section>
      <section aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Latest deliveries</h2>
        {deliveries.state == 'ready' ? <AlertDeliveries deliveries={deliveries.data.data} /> : <Status loaded={deliveries} />}
      </section>
    </Layout>
  );
};
