// Finds the PostgreSQL server programs (initdb, pg_ctl) that the PostgreSQL store tests start a
// throw-away server with: SITEBEACON_POSTGRES_BIN, else Debian's /usr/lib/postgresql/<version>/bin
// (newest first), else `pg_config --bindir`. Run as a script with --install, it installs Debian's
// `postgresql` package when none is there and it can (root, apt-get), as e2e/chromium.mjs does for
// Chromium, so that `npm test` sets itself up on a fresh machine.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HOW_TO_FIX =
  'No PostgreSQL server for the PostgreSQL store tests. Install one: `sudo apt-get install postgresql` (Debian/Ubuntu), ' +
  'or set SITEBEACON_POSTGRES_BIN=/path/to/postgresql/bin (the folder holding initdb and pg_ctl).';

const hasServer = (dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));

const debianBins = () => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((version) => /^\d+(\.\d+)?$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(root, version, 'bin'));
};

const pgConfigBin = () => {
  try {
    return [execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()];
  } catch {
    return [];
  }
};

/**
 * The folder holding `initdb` and `pg_ctl`. Throws with a message naming the fix when there is none.
 *
 * @example
 * const bin = findPostgres(); // '/usr/lib/postgresql/15/bin' on Debian 12
 */
export const findPostgres = () => {
  const chosen = process.env.SITEBEACON_POSTGRES_BIN;
  if (chosen) {
    if (hasServer(chosen)) return chosen;
    throw new Error(`SITEBEACON_POSTGRES_BIN=${chosen} holds no initdb and pg_ctl. ${HOW_TO_FIX}`);
  }
  const found = [...debianBins(), ...pgConfigBin()].find(hasServer);
  if (found) return found;
  throw new Error(HOW_TO_FIX);
};

const installDebianPostgres = () => {
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canInstall) return false;
  console.log("sitebeacon: installing Debian's postgresql package for the PostgreSQL store tests…");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql'], { stdio: 'inherit', env });
  return true;
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let found;
  try {
    found = findPostgres();
  } catch (error) {
    if (!process.argv.includes('--install') || !installDebianPostgres()) {
      console.error(`sitebeacon: ${error.message}`);
      process.exit(1);
    }
    found = findPostgres();
  }
  console.log(`sitebeacon: PostgreSQL store tests use ${found}`);
}
