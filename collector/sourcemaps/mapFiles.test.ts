import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect, test } from 'vitest';
import { makeMapFolder } from './mapFiles';

test('a new map folder is named by its process; the folders of processes that no longer run are deleted, the others kept', () => {
  const gone = spawnSync(process.execPath, ['-e', '']).pid!;
  const dead = join(tmpdir(), `sitebeacon-maps-${gone}-test`);
  const live = join(tmpdir(), `sitebeacon-maps-${process.ppid}-test`);
  mkdirSync(join(dead, 'x'), { recursive: true });
  mkdirSync(live, { recursive: true });
  try {
    const made = makeMapFolder();
    expect(basename(made)).toMatch(new RegExp(`^sitebeacon-maps-${process.pid}-`));
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    rmSync(made, { recursive: true });
  } finally {
    rmSync(dead, { recursive: true, force: true });
    rmSync(live, { recursive: true, force: true });
  }
});
