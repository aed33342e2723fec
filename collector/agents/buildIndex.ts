import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILD_MAGIC, parseBuildName, type BuildName } from '../core/agentBuilds';

/** A build in the updates folder, as last seen: its name parts and the file's identity. */
export interface Build extends BuildName {
  path: string;
  size: number;
  /** Changes whenever the file does (inode, size, modification time): what the caches key on. */
  identity: string;
}

const identityOf = (stats: Stats) => `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;

/** Whether the file starts with its format's magic bytes: a real build, not any file named like one. */
const startsWithMagic = async (path: string, magic: Uint8Array) => {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(magic.length);
    const { bytesRead } = await handle.read(head, 0, magic.length, 0);
    return bytesRead == magic.length && head.every((byte, index) => byte == magic[index]);
  } finally {
    await handle.close();
  }
};

/** SHA-256 of a file, streamed: memory stays flat whatever its size. */
const hashFile = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });

/**
 * The builds of the updates folder (docs/hostile-input.md, "Agent builds"): files named like a build
 * (core/agentBuilds.ts) that are regular files starting with their format's magic bytes (gzip or
 * ELF). A file is checked once, and hashed once, per identity (inode, size, mtime): a request costs
 * a directory listing and a `stat` per build, never a read of a build, until a build changes.
 *
 * @example
 * const index = createBuildIndex('/srv/agent-builds');
 * const builds = await index.builds();
 * const sha256 = await index.sha256(builds[0]);
 */
export const createBuildIndex = (dir: string) => {
  /** Per file name: the identity last checked, and whether it was a real build. */
  const checked = new Map<string, { identity: string; real: Promise<boolean> }>();
  const hashes = new Map<string, { identity: string; sha256: Promise<string> }>();

  const isReal = (build: Omit<Build, 'identity'>, identity: string) => {
    let entry = checked.get(build.file);
    if (!entry || entry.identity != identity) {
      entry = { identity, real: startsWithMagic(build.path, BUILD_MAGIC[build.format]).catch(() => false) };
      checked.set(build.file, entry);
    }
    return entry.real;
  };

  /** The build named `file` as it is now, if it is one. */
  const find = async (file: string): Promise<Build | undefined> => {
    const name = parseBuildName(file);
    if (!name) return undefined;
    const path = join(dir, file);
    const stats = await stat(path).catch(() => undefined);
    if (!stats?.isFile()) return undefined;
    const identity = identityOf(stats);
    const build = { ...name, path, size: stats.size, identity };
    return (await isReal(build, identity)) ? build : undefined;
  };

  return {
    find,
    /** Every build of the folder, now. */
    async builds(): Promise<Build[]> {
      const files = await readdir(dir).catch(() => [] as string[]);
      const found = await Promise.all(files.filter((file) => parseBuildName(file)).map(find));
      // Forget files that are gone, so the maps stay as small as the folder.
      for (const map of [checked, hashes]) for (const file of map.keys()) if (!files.includes(file)) map.delete(file);
      return found.filter((build): build is Build => !!build);
    },
    /** The build's SHA-256, hashed once per identity. */
    sha256(build: Build): Promise<string> {
      let entry = hashes.get(build.file);
      if (!entry || entry.identity != build.identity) {
        const hashing = { identity: build.identity, sha256: hashFile(build.path) };
        hashes.set(build.file, hashing);
        // A failed read is not remembered: the next request tries again.
        hashing.sha256.catch(() => hashes.get(build.file) === hashing && hashes.delete(build.file));
        entry = hashing;
      }
      return entry.sha256;
    },
  };
};

export type BuildIndex = ReturnType<typeof createBuildIndex>;
