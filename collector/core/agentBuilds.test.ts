import fc from 'fast-check';
import { expect, test } from 'vitest';
import { buildArch, newestBuild, parseBuildName, type BuildName } from './agentBuilds';

test('only build names parse: a version, linux, a known architecture, and a bare binary or a gzip archive', () => {
  expect(parseBuildName('sitebeacon-agent-1.4.2-linux-amd64.tar.gz')).toMatchObject({ version: [1, 4, 2], arch: 'amd64', format: 'gzip' });
  expect(parseBuildName('sitebeacon-agent-1.4.2-linux-arm64')).toMatchObject({ arch: 'arm64', format: 'elf' });
  for (const name of [
    'checksums.txt',
    'sitebeacon-agent-1.4.2-checksums.txt',
    'sitebeacon-agent-1.4.2-linux-amd64.tar.gz.sig',
    'sitebeacon-agent-1.4.2-linux-amd64.sha256',
    'sitebeacon-agent-1.4.2-linux-riscv64',
    'sitebeacon-agent-1.4.2-darwin-arm64',
    '../sitebeacon-agent-1.4.2-linux-amd64',
    'sitebeacon-agent-1.4.2-linux-amd64/../../etc/passwd',
    'sitebeacon-agent-1.4-linux-amd64',
  ]) {
    expect(parseBuildName(name), name).toBeUndefined();
  }
});

test('whatever the string, a parsed name is exactly a build name: no path, no other suffix', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.tuple(fc.string(), fc.constantFrom('amd64', 'arm64', 'x86_64'), fc.string()).map(([a, arch, b]) => `sitebeacon-agent-1.2.3${a}-linux-${arch}${b}`),
      ),
      (name) => {
        const parsed = parseBuildName(name);
        if (parsed) expect(name).toMatch(/^sitebeacon-agent-\d+\.\d+\.\d+-linux-(amd64|arm64|armv7|386)(\.tar\.gz|\.tgz)?$/);
      },
    ),
    { seed: 20261126, numRuns: 2000 },
  );
});

test("agents' architecture names map to build names; others, and Object.prototype's names, to none", () => {
  expect(['x86_64', 'AMD64', 'x64', ' amd64 '].map(buildArch)).toEqual(['amd64', 'amd64', 'amd64', 'amd64']);
  expect(['aarch64', 'arm64', 'armv8'].map(buildArch)).toEqual(['arm64', 'arm64', 'arm64']);
  expect(['armv7l', 'armhf', 'i686', 'i386'].map(buildArch)).toEqual(['armv7', 'armv7', '386', '386']);
  for (const name of ['riscv64', 'constructor', '__proto__', 'toString', '']) expect(buildArch(name), name).toBeUndefined();
});

test('the newest build of one architecture only: by version, then an archive before a bare binary', () => {
  const builds = [
    'sitebeacon-agent-1.9.0-linux-amd64.tar.gz',
    'sitebeacon-agent-1.10.0-linux-amd64',
    'sitebeacon-agent-1.10.0-linux-amd64.tar.gz',
    'sitebeacon-agent-2.0.0-linux-arm64.tar.gz',
  ].map((name) => parseBuildName(name)!) as BuildName[];
  expect(newestBuild(builds, 'amd64')?.file).toBe('sitebeacon-agent-1.10.0-linux-amd64.tar.gz');
  expect(newestBuild(builds, 'arm64')?.file).toBe('sitebeacon-agent-2.0.0-linux-arm64.tar.gz');
  expect(newestBuild(builds, 'armv7')).toBeUndefined();
});
