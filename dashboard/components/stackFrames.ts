import type { IssueFrame } from '../../collector/routes/apiTypes';

/** A run of frames as the stack view shows it: one of the site's own frames, or library frames folded together. */
export type FrameGroup = { kind: 'app'; frame: IssueFrame } | { kind: 'library'; frames: IssueFrame[] };

/**
 * The frames in the stack's order (innermost call first), each of the site's own frames on its
 * own and each run of library frames (`in_app` false: a library's script or source, an
 * extension, native code) as one group, so that the reader sees the site's code first and opens
 * the libraries only when needed (docs/source-maps.md, "in_app").
 *
 * @example
 * frameGroups([app, lib, lib, app]) // [{ kind: 'app', frame: app }, { kind: 'library', frames: [lib, lib] }, { kind: 'app', frame: app }]
 */
export const frameGroups = (frames: readonly IssueFrame[]): FrameGroup[] => {
  const groups: FrameGroup[] = [];
  for (const frame of frames) {
    const last = groups.at(-1);
    if (frame.in_app) groups.push({ kind: 'app', frame });
    else if (last?.kind == 'library') last.frames.push(frame);
    else groups.push({ kind: 'library', frames: [frame] });
  }
  return groups;
};

/**
 * Why a frame shows no original position, in words (docs/source-maps.md, "Why a frame is not
 * mapped"); null for a mapped frame.
 *
 * @example
 * unmappedWords({ unmapped: 'no_map', file: 'https://shop.example/app.js' }, '1.4.2') // 'Not mapped: no source map for release 1.4.2 and this file.'
 */
export const unmappedWords = (frame: Pick<IssueFrame, 'unmapped' | 'file'>, release: string | null): string | null => {
  switch (frame.unmapped) {
    case null:
      return null;
    case 'no_release':
      return 'Not mapped: the report names no release, so no source map could be chosen.';
    case 'no_map':
      return frame.file === null ? 'Not mapped: the frame names no file (native or eval code).' : `Not mapped: no source map for release ${release ?? '(none)'} and this file.`;
    case 'outside_map':
      return 'Not mapped: this position is outside the source map (the map is of another build?).';
    case 'map_invalid':
      return 'Not mapped: the source map for this file is invalid.';
  }
};

/**
 * `file:line:column`, or the file alone, or nothing, as a position reads.
 *
 * @example
 * position('src/format.js', 3, 11) // 'src/format.js:3:11'
 */
export const position = (file: string | null, line: number | null, column: number | null) =>
  file === null ? '' : `${file}${line === null ? '' : `:${line}${column === null ? '' : `:${column}`}`}`;

/**
 * The name a frame shows: the source's (the caller's call site, from the map), else the engine's,
 * else "(anonymous)".
 *
 * @example
 * functionName({ function: 't', original: { function: 'formatTotal', … } }) // 'formatTotal'
 */
export const functionName = (frame: Pick<IssueFrame, 'function' | 'original'>) => frame.original?.function ?? frame.function ?? '(anonymous)';
