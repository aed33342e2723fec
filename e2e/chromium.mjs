// Finds the Chromium that the end-to-end tests drive: Playwright's own build when it is
// installed, else the system's (Debian's `chromium` package). Run as a script with --install,
// it installs Debian's package when neither is there and it can (root, apt-get).
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export const HOW_TO_FIX =
  'No Chromium for the end-to-end tests. Install one: `sudo apt-get install chromium` (Debian/Ubuntu), ' +
  'or `npx playwright install chromium` where downloads are allowed, or set SITEBEACON_CHROMIUM=/path/to/chrome.';

/**
 * The executable to launch, or `undefined` for Playwright's own build.
 * Throws with a message naming the fix when there is none.
 */
export const findChromium = () => {
  const chosen = process.env.SITEBEACON_CHROMIUM;
  if (chosen) {
    if (existsSync(chosen)) return chosen;
    throw new Error(`SITEBEACON_CHROMIUM=${chosen} does not exist. ${HOW_TO_FIX}`);
  }
  try {
    if (existsSync(chromium.executablePath())) return undefined;
  } catch {
    // Playwright throws when it has no build for this platform.
  }
  const system = SYSTEM_CHROMIUMS.find((path) => existsSync(path));
  if (system) return system;
  throw new Error(HOW_TO_FIX);
};

/** Flags for a machine without a display or a network beyond loopback. */
export const CHROMIUM_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

const installDebianChromium = () => {
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canInstall) return false;
  console.log('sitebeacon: installing Debian\'s chromium package for the end-to-end tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  return true;
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let found;
  try {
    found = findChromium();
  } catch (error) {
    if (!process.argv.includes('--install') || !installDebianChromium()) {
      console.error(`sitebeacon: ${error.message}`);
      process.exit(1);
    }
    found = findChromium();
  }
  console.log(`sitebeacon: end-to-end tests use ${found ?? "Playwright's own Chromium"}`);
}
