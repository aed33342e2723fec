import { render } from 'preact';
import { useApi } from './api';
import { apiPath } from '../collector/routes/apiPath';
import { Layout } from './components/Layout';
import { Status } from './components/Status';
import { AlertsPage } from './pages/AlertsPage';
import { DocsPage } from './pages/DocsPage';
import { IssuePage } from './pages/IssuePage';
import { Overview } from './pages/Overview';
import { SetupPage } from './pages/SetupPage';
import { SignIn } from './pages/SignIn';
import { SitePage } from './pages/SitePage';
import { route } from './route';

const App = () => {
  const session = useApi(apiPath('/api/v1/session', {}));
  const current = route(location.pathname);
  const email = session.state == 'ready' ? session.data.email : undefined;
  if (current.page == 'docs') return <DocsPage email={email} />;
  if (session.state == 'failed') {
    if (session.failure.status == 401) return <SignIn />;
    return (
      <Layout title="sitebeacon">
        <Status loaded={session} />
      </Layout>
    );
  }
  // The page loads its data while the session is asked for (one round trip less): signed out, its
  // reads answer 401 as well and the sign-in form replaces it.
  switch (current.page) {
    case 'site':
      return <SitePage email={email} siteKey={current.siteKey} />;
    case 'error':
      return <IssuePage email={email} siteKey={current.siteKey} fingerprint={current.fingerprint} />;
    case 'setup':
      return <SetupPage email={email} siteKey={current.siteKey} />;
    case 'alerts':
      return <AlertsPage email={email} siteKey={current.siteKey} />;
    default:
      return session.state == 'ready' ? <Overview email={email} /> : <Layout title="sitebeacon"><Status loaded={session} /></Layout>;
  }
};

render(<App />, document.getElementById('app')!);
