import type { IssueFrame } from '../../collector/routes/apiTypes';
import { clip, formatNumber } from '../format';
import { frameGroups, functionName, position, unmappedWords } from './stackFrames';

type Original = NonNullable<IssueFrame['original']>;

/** Shown text is bounded: a stack line or a source path is anyone's text (docs/source-maps.md, "Source context"). */
const MAX_SHOWN = 300;

/** A line of code as text; an empty line keeps its height. */
const Code = ({ text }: { text: string }) => <code>{text || '\u00a0'}</code>;

/** The source lines around the failing one, numbered as in the file, the failing line marked in words too. */
const SourceContext = ({ original }: { original: Original }) => {
  const { context } = original;
  if (!context) return <p class="muted small">The source map carries no source text.</p>;
  return (
    <ol class="context" start={original.line - context.pre.length}>
      {context.pre.map((text) => (
        <li>
          <Code text={text} />
        </li>
      ))}
      <li class="failing" aria-current="true">
        <span class="visually-hidden">Failing line: </span>
        <Code text={context.line} />
      </li>
      {context.post.map((text) => (
        <li>
          <Code text={text} />
        </li>
      ))}
    </ol>
  );
};

/** One frame: where it is in the code as written first, with its source; else where the engine saw it and why it is not mapped. */
const Frame = ({ frame, release }: { frame: IssueFrame; release: string | null }) => {
  const { original } = frame;
  const minified = position(frame.file, frame.line, frame.column);
  return (
    <li class={frame.in_app ? 'frame in-app' : 'frame library'} data-testid="frame">
      <p class="frame-head">
        <code class="function">{clip(functionName(frame), MAX_SHOWN)}</code>{' '}
        <span class="where">{original ? clip(position(original.file, original.line, original.column), MAX_SHOWN) : clip(minified || frame.raw.trim(), MAX_SHOWN)}</span>
      </p>
      {original ? (
        <>
          <SourceContext original={original} />
          <p class="muted small minified">
            Minified: <code>{clip(minified, MAX_SHOWN)}</code>
            {frame.function ? (
              <>
                {' '}in <code>{clip(frame.function, MAX_SHOWN)}</code>
              </>
            ) : null}
          </p>
        </>
      ) : (
        <p class="unmapped small" data-testid="unmapped">
          {unmappedWords(frame, release)}
        </p>
      )}
    </li>
  );
};

/**
 * An event's stack as its release's source maps read it (docs/source-maps.md, "Frames"): innermost
 * call first, each of the site's own frames with its original function, file:line:column and source
 * lines, each run of library frames folded ("Show N library frames"), each frame not mapped saying
 * why, and the stack as the browser wrote it one click away. Text only: Preact escapes every string
 * it renders, and the source lines are anyone's upload.
 *
 * @example
 * <StackTrace frames={event.frames} stack={event.stack} release={event.release} />
 */
export const StackTrace = ({ frames, stack, release }: { frames: readonly IssueFrame[]; stack: string | null; release: string | null }) => {
  const mapped = frames.filter((frame) => frame.original).length;
  return (
    <div class="stack-view">
      {frames.length ? (
        <>
          <p class="muted small" data-testid="frames-mapped">
            {release === null
              ? `${formatNumber(frames.length)} ${frames.length == 1 ? 'frame' : 'frames'}; the report names no release, so none is mapped.`
              : `${formatNumber(mapped)} of ${formatNumber(frames.length)} frames mapped by release ${clip(release, 40)}'s source maps.`}
          </p>
          <ol class="frames" aria-label="Stack frames, innermost call first">
            {frameGroups(frames).map((group) =>
              group.kind == 'app' ? (
                <Frame frame={group.frame} release={release} />
              ) : (
                <li class="library-group">
                  <details>
                    <summary>
                      Show {formatNumber(group.frames.length)} library {group.frames.length == 1 ? 'frame' : 'frames'}
                    </summary>
                    <ol class="frames">
                      {group.frames.map((frame) => (
                        <Frame frame={frame} release={release} />
                      ))}
                    </ol>
                  </details>
                </li>
              ),
            )}
          </ol>
        </>
      ) : (
        <p class="muted small">The stack names no frame this collector can read.</p>
      )}
      {stack ? (
        <details class="raw">
          <summary>Raw stack</summary>
          <pre class="stack" tabIndex={0}>
            {stack}
          </pre>
        </details>
      ) : null}
    </div>
  );
};
