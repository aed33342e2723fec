import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import type { Flag } from './defineCommand';
import { serve } from './serve';

// deploy/: the systemd unit and its environment file, as a self-hoster installs them (README,
// "Running it for real"). They name settings and paths by hand, so they are checked against the CLI.
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const unit = read('deploy/sitebeacon.service');
const environment = read('deploy/sitebeacon.env.example');
// `serve`'s variables, from its declaration (serveFlags.ts): what the CLI reads.
const serveVariables = Object.values(serve.flags as Record<string, Flag>).flatMap((flag) => (flag.env ? [flag.env] : []));

/** `NAME=value` lines, commented out or not. */
const settings = (text: string) => [...text.matchAll(/^#?(SITEBEACON_[A-Z_]+)=(.*)$/gm)].map(([, name, value]) => ({ name: name!, value: value! }));
const directive = (name: string) => unit.match(new RegExp(`^${name}=(.*)$`, 'm'))?.[1];

test('the environment file names every variable serve reads, and no other', () => {
  const names = settings(environment).map(({ name }) => name);
  expect(serveVariables.length).toBeGreaterThan(5);
  expect([...names].sort()).toEqual([...serveVariables].sort());
});

test('the unit runs serve as its own user, with the environment file and the state directory the file names', () => {
  expect(directive('ExecStart')).toMatch(/\/sitebeacon serve$/);
  expect(directive('User')).toBe('sitebeacon');
  expect(directive('EnvironmentFile')).toBe('/etc/sitebeacon.env');
  expect(unit).toContain('deploy/sitebeacon.env.example /etc/sitebeacon.env');
  const database = settings(environment).find(({ name }) => name == 'SITEBEACON_DB')!.value;
  expect(database.startsWith(`/var/lib/${directive('StateDirectory')}/`)).toBe(true);
  expect(directive('WorkingDirectory')).toBe(`/var/lib/${directive('StateDirectory')}`);
  // A graceful stop: the collector finishes what it acknowledged (README, durability).
  expect(directive('KillSignal')).toBe('SIGTERM');
});
