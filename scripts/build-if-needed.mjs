// `npm start` builds only when the sources are newer than dist/ (or dist/ is missing).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const OUTPUTS = ['dist/beacon.min.js', 'dist/beacon.mjs', 'dist/cli.js', 'dist/dashboard/index.html'];
const SOURCES = ['beacon', 'collector', 'dashboard', 'rollup.config.mjs', 'package.json', 'tsconfig.json'];

const newest = (path) => {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
};

const oldestOutput = () => {
  try {
    return Math.min(...OUTPUTS.map((file) => statSync(join(root, file)).mtimeMs));
  } catch {
    return -Infinity;
  }
};

if (Math.max(...SOURCES.map((path) => newest(join(root, path)))) > oldestOutput()) {
  execFileSync('npx', ['rollup', '-c', '--silent'], { cwd: root, stdio: 'inherit' });
}
