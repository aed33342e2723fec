import type { ErrorCause } from '../../collector/routes/apiTypes';

/**
 * How one cause is introduced: "Caused by: Name: message" for a link of the `cause` chain, "Inner
 * error N of the AggregateError: Name: message" for an inner error (N counts the inner errors
 * only, from 1). The wire format gives causes outermost first (docs/wire-format.md, "Error reports").
 *
 * @example
 * causeHeading([{ error_name: 'TypeError', error_message: 'fetch failed' }], 0) // 'Caused by: TypeError: fetch failed'
 */
export const causeHeading = (causes: readonly ErrorCause[], index: number) => {
  const cause = causes[index]!;
  const described = `${cause.error_name ? `${cause.error_name}: ` : ''}${cause.error_message}`;
  if (!cause.aggregate) return `Caused by: ${described}`;
  const position = causes.slice(0, index + 1).filter((each) => each.aggregate).length;
  return `Inner error ${position} of the AggregateError: ${described}`;
};

/**
 * The causes of a report under its stack, each with its own stack in the main stack's style. Text
 * only: Preact escapes every string it renders (a cause is whatever a page sent).
 *
 * @example
 * <ErrorCauses causes={latest.causes} />
 */
export const ErrorCauses = ({ causes }: { causes: readonly ErrorCause[] | undefined }) =>
  causes?.length ? (
    <ol class="causes" aria-label="Causes">
      {causes.map((cause, index) => (
        <li>
          <p class="message">{causeHeading(causes, index)}</p>
          {cause.stack ? (
            <pre class="stack" tabIndex={0}>
              {cause.stack}
            </pre>
          ) : null}
        </li>
      ))}
    </ol>
  ) : null;
