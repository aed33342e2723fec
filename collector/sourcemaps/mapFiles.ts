import { closeSync, fstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCompactMap, type ByteReader } from '../core/stack/compactMap';
import { compileSourceMap } from '../core/stack/compactMapBuild';
import type { MapEntry } from '../core/stack/createMapCache';
import { checkSourceMap } from '../core/stack/parseSourceMap';

/**
 * A compact map's file read by range (positioned reads of the bytes asked, nothing else kept); a
 * read past the file's end, or of a file closed, throws, which symbolicate.ts takes as no position.
 *
 * @example
 * const map = openCompactMap(fileReader(path));
 */
export const fileReader = (path: string): ByteReader & { close: () => void } => {
  const fd = openSync(path, 'r');
  let open = true;
  // The trailer says where each section is; the file's size is where the trailer is.
  const { size } = fstatSync(fd);
  return {
    size,
    read(offset, length) {
      if (!open) throw new Error('the compact map is closed');
      const bytes = Buffer.allocUnsafe(length);
      if (readSync(fd, bytes, 0, length, offset) != length) throw new Error('a compact map is shorter than its trailer says');
      return bytes;
    },
    close() {
      if (open) (open = false), closeSync(fd);
    },
  };
};

let nextFile = 0;

/**
 * A compile for createMapCache.ts that writes each map's compact form to a file of `dir` (docs/
 * source-maps.md, "The map thread"): the text is checked and parsed, its compact form written as
 * it is made, and the map read from the file by range after, so that a kept map costs a file
 * descriptor and no heap. Dropping the entry closes and deletes the file.
 *
 * @example
 * const cache = createMapCache({ maxBytes: MAP_FILES_BYTES }, compileToFile(dir));
 */
export const compileToFile =
  (dir: string) =>
  (text: string): MapEntry => {
    const checked = checkSourceMap(text);
    if (checked == 'map_invalid') return { map: checked, weight: text.length };
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${process.pid}-${Date.now().toString(36)}-${nextFile++}.sbmap`);
    const fd = openSync(path, 'w', 0o600);
    let size: number | 'map_invalid';
    try {
      size = compileSourceMap(checked, (chunk) => {
        for (let at = 0; at < chunk.byteLength; ) at += writeSync(fd, chunk, at);
      });
    } finally {
      closeSync(fd);
    }
    if (size == 'map_invalid') {
      unlinkSync(path);
      return { map: size, weight: text.length };
    }
    const reader = fileReader(path);
    return {
      map: openCompactMap(reader),
      weight: size,
      path,
      dispose: () => {
        reader.close();
        rmSync(path, { force: true });
      },
    };
  };

const PREFIX = 'sitebeacon-maps-';

/** Whether process `pid` runs (a signal 0 is only checked, not sent). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code == 'EPERM';
  }
};

/**
 * A new folder for a store's compact maps in the system's temporary directory, named by this
 * process's id; the folders of processes that no longer run (killed before they could delete
 * theirs) are deleted first.
 *
 * @example
 * const dir = makeMapFolder(); // /tmp/sitebeacon-maps-4242-Xa81Qz
 */
export const makeMapFolder = () => {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(/^sitebeacon-maps-(\d+)-/.exec(name)?.[1]);
    if (pid && pid != process.pid && !alive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  return mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
};

/** Deletes what a previous thread left in `dir` (its cache was lost with it): a file still open elsewhere stays readable there. */
export const clearMapFiles = (dir: string) => {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.endsWith('.sbmap')) rmSync(join(dir, name), { force: true });
};
