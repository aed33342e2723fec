// A rollup plugin for the dashboard's build: emits the CSS (uPlot's and ours, one hashed file)
// and index.html, the shell the collector serves at every dashboard path. The shell has no
// inline script or style: the page's CSP allows only files from the collector itself.
import { readFileSync } from 'node:fs';

export const dashboardHtml = ({ css }) => ({
  name: 'sitebeacon-dashboard-html',
  generateBundle(_options, bundle) {
    const styles = this.emitFile({ type: 'asset', name: 'dashboard.css', source: css.map((file) => readFileSync(file, 'utf8')).join('\n') });
    const entry = Object.values(bundle).find((chunk) => chunk.type == 'chunk' && chunk.isEntry);
    // The app chunk the entry imports, fetched at once rather than when the entry has run.
    const preloads = [...entry.imports, ...entry.dynamicImports].map((file) => `<link rel="modulepreload" href="/dashboard/${file}">\n`).join('');
    this.emitFile({
      type: 'asset',
      fileName: 'index.html',
      source: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sitebeacon</title>
<link rel="stylesheet" href="/dashboard/${this.getFileName(styles)}">
<script type="module" src="/dashboard/${entry.fileName}"></script>
${preloads}
</head>
<body>
<div id="app"><noscript>The sitebeacon dashboard needs JavaScript.</noscript></div>
</body>
</html>
`,
    });
  },
});
