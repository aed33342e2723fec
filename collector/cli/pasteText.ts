/**
 * What `site add`, `site rotate-key` and `snippet` print for a site's pages: the snippet to paste,
 * each of its lines indented, and the sources a page's Content-Security-Policy must allow for it
 * (spec section 1, "Browser requirements"; the stub's hash: docs/early-capture.md).
 *
 * @example
 * pasteText('Paste into every page:', snippet(urls, key), cspSources(urls))
 * // 'Paste into every page:\n  <script>…</script>\n  <script src=…></script>\n\nIf the pages send a Content-Security-Policy, it must allow:\n  script-src …'
 */
export const pasteText = (heading: string, snippet: string, sources: Record<string, string[]>) =>
  `${heading}\n  ${snippet.replace(/\n/g, '\n  ')}\n\nIf the pages send a Content-Security-Policy, it must allow:\n` +
  Object.entries(sources)
    .map(([directive, list]) => `  ${directive} ${list.join(' ')}`)
    .join('\n') +
  // A hash turns 'unsafe-inline' off for the page's other inline scripts (CSP3, "Does a source list allow all
  // inline behavior for type?").
  (Object.values(sources).some((list) => list.some((source) => source.startsWith("'sha256-")))
    ? "\n(the 'sha256-…' source allows the inline stub; a script-src with 'unsafe-inline' needs none, and adding one there blocks the page's other inline scripts)"
    : '');
