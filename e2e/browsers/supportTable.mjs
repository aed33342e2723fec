// The browser support table, as the cross-browser suite measured it. The suite writes one JSON
// file per browser under test-results/browser-support/; `render` turns them into
// test-results/browser-support.json and .md. As a script:
//   --check  fails when README.md's "Browser support" table is not the one just measured
//   --write  puts the measured table into README.md
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RESULTS = join(ROOT, 'test-results');
export const PER_BROWSER = join(RESULTS, 'browser-support');
const README = join(ROOT, 'README.md');
const START = '<!-- browser-support:start (written by `npm run test:browsers`, do not edit by hand) -->';
const END = '<!-- browser-support:end -->';

/** The rows of the table: one per case of the suite, in this order. */
export const ROWS = [
  ['error', 'Errors (beacon: `error` event)'],
  ['rejection', 'Unhandled rejections (beacon)'],
  ['csp', 'CSP violations (beacon: `securitypolicyviolation`)'],
  ['vitals', 'Web Vitals (beacon, sent when the page is left)'],
  ['report-uri', "CSP `report-uri` (the browser's own report)"],
  ['report-to', "CSP `report-to` + `Reporting-Endpoints` (the browser's own report)"],
  ['both', 'A violation reported by both the beacon and `report-uri`, counted once'],
  ['early-error', "An error thrown before `beacon.js` loaded (the snippet's early stub), with the time it was thrown"],
  ['early-rejection', 'An unhandled rejection before `beacon.js` loaded (early stub), with its time'],
  ['early-csp', "A markup image blocked by CSP before `beacon.js` loaded (early stub): the violation and the failed load"],
  ['thrown-values', 'A thrown string and a thrown object: the value itself (`stringError`, `{"code":…}`), no engine prefix'],
  ['rejected-event', "A rejection with an image's error `Event`: the event, its type and the image's `src`"],
  ['causes', 'An error\'s `cause` chain and an `AggregateError`\'s inner errors, in order'],
  ['source-maps', "A minified app's error read through its build's source map (`sourcemaps upload`): the top frames' original function, file, line and column"],
];
const COLUMNS = [
  ['chromium', 'Chromium'],
  ['firefox', 'Firefox ESR'],
  ['webkit', 'Safari / WebKit'],
];

const ENGINES = { chromium: 'Chromium', firefox: 'Firefox ESR', webkit: 'WebKitGTK' };

/** The measured results of the browsers that ran, by name. */
export const readResults = () => {
  if (!existsSync(PER_BROWSER)) return {};
  const results = {};
  for (const file of readdirSync(PER_BROWSER).filter((name) => name.endsWith('.json')).sort()) {
    const result = JSON.parse(readFileSync(join(PER_BROWSER, file), 'utf8'));
    results[result.browser] = result;
  }
  return results;
};

const cell = (outcome) => {
  if (!outcome) return 'not measured';
  const text = outcome.captured ? `yes${outcome.detail ? `: ${outcome.detail}` : ''}` : `**no**: ${outcome.detail}`;
  return text.replace(/\|/g, '\\|');
};

/**
 * The markdown: a line naming the versions measured, then the table.
 *
 * @example
 * render({ firefox: { browser: 'firefox', version: 'firefox/153.7.0', cases: { error: { captured: true } } } });
 */
export const render = (results) => {
  const columns = COLUMNS.filter(([name]) => results[name]);
  // `Chrome/156.0.8078.79`, `firefox/153.7.0`, `2.50.6` (WebKitGTK): the number is what matters.
  const versions = columns.map(([name]) => `${ENGINES[name]} ${results[name].version.replace(/^[^/]*\//, '')}`).join(', ');
  return [
    `Measured by \`npm run test:browsers\` with ${versions}; what the collector stored.`,
    '',
    `| captured | ${columns.map(([, label]) => label).join(' | ')} |`,
    `|---|${columns.map(() => '---').join('|')}|`,
    ...ROWS.map(([id, label]) => `| ${label} | ${columns.map(([name]) => cell(results[name].cases[id])).join(' | ')} |`),
  ].join('\n');
};

/** Writes test-results/browser-support.json and .md from the per-browser files; returns the markdown. */
export const writeMeasured = () => {
  const results = readResults();
  if (!Object.keys(results).length) return undefined;
  mkdirSync(RESULTS, { recursive: true });
  const markdown = render(results);
  writeFileSync(join(RESULTS, 'browser-support.json'), `${JSON.stringify({ measured_at: new Date().toISOString(), browsers: results }, null, 2)}\n`);
  writeFileSync(join(RESULTS, 'browser-support.md'), `${markdown}\n`);
  return markdown;
};

/** Only the table's rows are compared: a browser update that changes no behaviour changes no row. */
const tableOf = (markdown) => markdown.split('\n').filter((line) => line.startsWith('|')).join('\n');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = readResults();
  const missing = COLUMNS.filter(([name]) => !results[name]).map(([, label]) => label);
  if (missing.length) {
    console.error(`sitebeacon: no measured results for ${missing.join(', ')}: run \`npm run test:browsers\` first.`);
    process.exit(1);
  }
  const measured = writeMeasured();
  const readme = readFileSync(README, 'utf8');
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) {
    console.error(`sitebeacon: README.md has no browser support block (${START} … ${END}).`);
    process.exit(1);
  }
  const current = readme.slice(start + START.length, end);
  if (process.argv.includes('--write')) {
    writeFileSync(README, `${readme.slice(0, start + START.length)}\n${measured}\n${readme.slice(end)}`);
    console.log('sitebeacon: README.md: browser support table written from the measured results.');
  } else if (tableOf(current) != tableOf(measured)) {
    console.error('sitebeacon: README.md\'s "Browser support" table is not what the suite measured:\n');
    console.error(measured);
    console.error('\nUpdate it with `node e2e/browsers/supportTable.mjs --write` (and say why in the commit).');
    process.exit(1);
  } else {
    console.log('sitebeacon: README.md\'s "Browser support" table matches what the suite measured.');
  }
}
