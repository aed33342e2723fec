import { render } from 'preact';
import { useApi } from './api';
import { Layout } from './components/Layout';
import { Status } from './components/Status';
import { DocsPage } from './pages/DocsPage';
import { ErrorGroupPage } from './pages/ErrorGroupPage';
import { Overview } from './pages/Overview';
import { SetupPage } from './pages/SetupPage';
import { SignIn } from './pages/SignIn';
import { SitePage } from './pages/SitePage';

/** The dashboard's pages by path (design, "Dashboard, sign-in and documentation"). */
const route = (path: string) => {
  const decode = (part: string) => decodeURIComponent(part);
  let match: RegExpExecArray | null;
  if (path == '/docs') return { page: 'docs' } as const;
  if ((match = /^\/sites\/([^/]+)\/errors\/([^/]+)$/.exec(path))) return { page: 'error', siteKey: decode(match[1]!), fingerprint: decode(match[2]!) } as const;
  if ((match = /^\/sites\/([^/]+)\/setup$/.exec(path))) return { page: 'setup', siteKey: decode(match[1]!) } as const;
  if ((match = /^\/sites\/([^/]+)$/.exec(path))) return { page: 'site', siteKey: decode(match[1]!) } as const;
  return { page: 'overview' } as const;
};

const App = () => {
  const session = useApi<{ email: string; site_keys: string[] | null }>('/api/v1/session');
  const current = route(location.pathname);
  const email = session.state == 'ready' ? session.data.email : undefined;
  if (current.page == 'docs') return <DocsPage email={email} />;
  if (session.state == 'loading') {
    return (
      <Layout title="sitebeacon">
        <Status loaded={session} />
      </Layout>
    );
  }
  if (session.state == 'failed') {
    if (session.failure.status == 401) return <SignIn />;
    return (
      <Layout title="sitebeacon">
        <Status loaded={session} />
      </Layout>
    );
  }
  switch (current.page) {
    case 'site':
      return <SitePage email={email!} siteKey={current.siteKey} />;
    case 'error':
      return <ErrorGroupPage email={email!} siteKey={current.siteKey} fingerprint={current.fingerprint} />;
    case 'setup':
      return <SetupPage email={email!} siteKey={current.siteKey} />;
    default:
      return <Overview email={email!} />;
  }
};

render(<App />, document.getElementById('app')!);
