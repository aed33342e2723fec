// Finds the browsers the cross-browser suite drives (`npm run test:browsers`): Chromium (as the
// Playwright e2e tests do), Firefox ESR, and WebKitGTK's WebDriver with its MiniBrowser under Xvfb.
// Run as a script with --install, it installs Debian's packages for what is missing when it can
// (root, apt-get), as e2e/chromium.mjs does for Chromium; otherwise it names the fix.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { findChromium } from '../chromium.mjs';

const PATH_DIRS = (process.env.PATH ?? '/usr/bin:/bin').split(':').filter(Boolean);

/** The first of `names` found on PATH (or an absolute path that exists). */
const onPath = (...names) => {
  for (const name of names) {
    if (name.startsWith('/')) {
      if (existsSync(name)) return name;
      continue;
    }
    for (const dir of PATH_DIRS) if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
};

/** The path an environment variable names (when it exists), else what `search` finds. */
const chosenOr = (variable, search) => {
  const chosen = process.env[variable];
  if (chosen) return existsSync(chosen) ? chosen : undefined;
  return search();
};

/** Debian installs MiniBrowser beside the WebKitGTK library (`libwebkit2gtk-4.1-0`), not on PATH. */
const findMiniBrowser = () => {
  for (const lib of ['/usr/lib', '/usr/lib64', '/usr/libexec']) {
    if (!existsSync(lib)) continue;
    const dirs = [lib, ...readdirSync(lib).map((entry) => join(lib, entry))];
    for (const dir of dirs) {
      for (const api of ['webkit2gtk-4.1', 'webkitgtk-6.0', 'webkit2gtk-4.0']) {
        const candidate = join(dir, api, 'MiniBrowser');
        if (existsSync(candidate)) return candidate;
      }
    }
  }
  return undefined;
};

/** What each browser needs, the Debian package that brings it, and how to point at it instead. */
const NEEDS = {
  firefox: [{ find: () => chosenOr('SITEBEACON_FIREFOX', () => onPath('firefox-esr', 'firefox')), what: 'Firefox ESR', package: 'firefox-esr', env: 'SITEBEACON_FIREFOX' }],
  webkit: [
    { find: () => chosenOr('SITEBEACON_WEBKIT_DRIVER', () => onPath('WebKitWebDriver')), what: 'WebKitWebDriver', package: 'webkit2gtk-driver', env: 'SITEBEACON_WEBKIT_DRIVER' },
    { find: () => chosenOr('SITEBEACON_MINIBROWSER', findMiniBrowser), what: "WebKitGTK's MiniBrowser", package: 'webkit2gtk-driver', env: 'SITEBEACON_MINIBROWSER' },
    { find: () => onPath('Xvfb'), what: 'Xvfb (a display for MiniBrowser)', package: 'xvfb', env: undefined },
  ],
};

const howToFix = (missing) =>
  `No ${missing.map((need) => need.what).join(', ')} for the cross-browser tests. Install: ` +
  `\`sudo apt-get install ${[...new Set(missing.map((need) => need.package))].join(' ')}\` (Debian/Ubuntu)` +
  missing
    .filter((need) => need.env)
    .map((need) => `, or set ${need.env}=/path/to/it`)
    .join('');

/**
 * The executables of one browser; throws with a message naming the fix when one is missing.
 *
 * @example
 * const { firefox } = findBrowser('firefox'); // '/usr/bin/firefox-esr'
 * const { driver, miniBrowser, xvfb } = findBrowser('webkit');
 */
export const findBrowser = (name) => {
  if (name == 'chromium') return { chromium: findChromium() ?? chromium.executablePath() };
  const needs = NEEDS[name];
  const found = needs.map((need) => need.find());
  const missing = needs.filter((_, index) => !found[index]);
  if (missing.length) throw new Error(howToFix(missing));
  return name == 'firefox' ? { firefox: found[0] } : { driver: found[0], miniBrowser: found[1], xvfb: found[2] };
};

export const BROWSERS = ['chromium', 'firefox', 'webkit'];

const install = (packages) => {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return false;
  console.log(`sitebeacon: installing Debian's ${packages.join(' ')} for the cross-browser tests…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
  return true;
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missingPackages = [];
  const problems = [];
  for (const name of BROWSERS) {
    try {
      findBrowser(name);
    } catch (error) {
      problems.push(error.message);
      if (name == 'chromium') missingPackages.push('chromium');
      else missingPackages.push(...NEEDS[name].filter((need) => !need.find()).map((need) => need.package));
    }
  }
  if (problems.length) {
    if (!process.argv.includes('--install') || !install([...new Set(missingPackages)])) {
      for (const problem of problems) console.error(`sitebeacon: ${problem}`);
      process.exit(1);
    }
  }
  try {
    for (const name of BROWSERS) console.log(`sitebeacon: ${name}: ${Object.values(findBrowser(name)).join(', ')}`);
  } catch (error) {
    console.error(`sitebeacon: ${error.message}`);
    process.exit(1);
  }
}
