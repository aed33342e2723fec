import type { Setup } from '../../collector/routes/apiTypes';
import { CopyButton } from './CopyButton';

/** The stub's CSP source among a directive's sources: what only the snippet with the stub needs. */
const isStubHash = (source: string) => source.startsWith("'sha256-");

/**
 * The two snippets of a site's setup (docs/early-capture.md), for the setup page's "Script tag"
 * section: the snippet with the early-capture stub, recommended, and the plain script tag as the
 * alternative, each saying what it catches; the stub's `'sha256-…'` source named for pages with a
 * strict `script-src`.
 *
 * @example
 * <SnippetChoice setup={setup.data} />
 */
export const SnippetChoice = ({ setup }: { setup: Pick<Setup, 'snippet' | 'snippet_without_stub' | 'csp_sources'> }) => {
  const hash = Object.values(setup.csp_sources).flat().find(isStubHash);
  return (
    <>
      <p>
        Paste into the &lt;head&gt; of every page, before other scripts. The first line is the early-capture stub: it keeps the
        page's errors, unhandled rejections, failed resource loads and CSP violations from the moment it runs, and the beacon
        sends them with their original times once it has loaded.
      </p>
      <pre class="snippet" tabIndex={0}>
        <code data-testid="snippet">{setup.snippet}</code>
      </pre>
      <CopyButton text={setup.snippet} label="Copy the snippet" />
      {hash && (
        <p class="small">
          A page whose CSP <code>script-src</code> has no <code>'unsafe-inline'</code> allows the stub by its hash:{' '}
          <code data-testid="stub-hash">{hash}</code>. With <code>'unsafe-inline'</code>, add no hash: it would block the page's
          other inline scripts.
        </p>
      )}
      <details>
        <summary>The script tag alone, without the stub</summary>
        <p>
          For pages that cannot carry an inline script. It catches the same, but only from when <code>beacon.js</code> has run:
          what fails while it is still loading is not seen. Its CSP needs no hash.
        </p>
        <pre class="snippet" tabIndex={0}>
          <code data-testid="snippet-without-stub">{setup.snippet_without_stub}</code>
        </pre>
        <CopyButton text={setup.snippet_without_stub} label="Copy the script tag" />
      </details>
    </>
  );
};
