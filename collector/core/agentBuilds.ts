/**
 * Agent build names and architectures (docs/hostile-input.md, "Agent builds"). Only a file named like a build can be
 * offered or downloaded: `sitebeacon-agent-X.Y.Z-linux-ARCH`, a bare binary, or the same with
 * `.tar.gz` / `.tgz`. `checksums.txt`, `sitebeacon-agent-1.2.3-notes.txt` or a signature beside
 * the builds are none.
 */
const BUILD = /^sitebeacon-agent-(\d{1,6})\.(\d{1,6})\.(\d{1,6})-linux-(amd64|arm64|armv7|386)(\.tar\.gz|\.tgz)?$/;

/** The architectures builds are made for, by their build names. */
export type BuildArch = 'amd64' | 'arm64' | 'armv7' | '386';

/** What a build's file name says. */
export interface BuildName {
  file: string;
  version: [number, number, number];
  arch: BuildArch;
  /** A gzip archive, or the ELF binary itself: what its first bytes must be. */
  format: 'gzip' | 'elf';
}

/**
 * A build's name parts, or undefined for any other file.
 *
 * @example
 * parseBuildName('sitebeacon-agent-1.4.2-linux-arm64.tar.gz') // { version: [1, 4, 2], arch: 'arm64', format: 'gzip', ... }
 * parseBuildName('checksums.txt') // undefined
 */
export const parseBuildName = (file: string): BuildName | undefined => {
  const match = BUILD.exec(file);
  if (!match) return undefined;
  return {
    file,
    version: [Number(match[1]), Number(match[2]), Number(match[3])],
    arch: match[4] as BuildArch,
    format: match[5] ? 'gzip' : 'elf',
  };
};

/** The names agents and systems give an architecture (`uname -m`, Debian, Go), to the build name. */
const ARCH_NAMES: ReadonlyMap<string, BuildArch> = new Map([
  ['amd64', 'amd64'], ['x86_64', 'amd64'], ['x86-64', 'amd64'], ['x64', 'amd64'],
  ['arm64', 'arm64'], ['aarch64', 'arm64'], ['armv8', 'arm64'],
  ['armv7', 'armv7'], ['armv7l', 'armv7'], ['armhf', 'armv7'], ['arm', 'armv7'],
  ['386', '386'], ['i386', '386'], ['i686', '386'], ['x86', '386'],
]);

/**
 * The build architecture an agent's architecture name means, or undefined when no build is made for it.
 * A Map, so that a name like `constructor` is no architecture.
 *
 * @example
 * buildArch('x86_64') // 'amd64'
 * buildArch('aarch64') // 'arm64'
 */
export const buildArch = (name: string): BuildArch | undefined => ARCH_NAMES.get(name.trim().toLowerCase());

/** The first bytes a build of each format starts with: gzip's magic, ELF's. */
export const BUILD_MAGIC: Record<BuildName['format'], Uint8Array> = {
  gzip: new Uint8Array([0x1f, 0x8b]),
  elf: new Uint8Array([0x7f, 0x45, 0x4c, 0x46]),
};

/**
 * The newest build for `arch`: highest version, then an archive before a bare binary.
 *
 * @example
 * newestBuild(builds, 'arm64')?.file // 'sitebeacon-agent-1.10.0-linux-arm64.tar.gz'
 */
export const newestBuild = <B extends BuildName>(builds: readonly B[], arch: BuildArch): B | undefined => {
  let newest: B | undefined;
  for (const build of builds) {
    if (build.arch != arch) continue;
    if (!newest) {
      newest = build;
      continue;
    }
    const order = build.version.findIndex((part, index) => part != newest!.version[index]);
    const rank = (candidate: B) => (candidate.format == 'gzip' ? 0 : 1);
    const better =
      order >= 0
        ? build.version[order]! > newest.version[order]!
        : rank(build) < rank(newest) || (rank(build) == rank(newest) && build.file < newest.file);
    if (better) newest = build;
  }
  return newest;
};
