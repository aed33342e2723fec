import * as v from 'valibot';

/**
 * Turns valibot issues into the message of a 400: where, and what is wrong (the first five).
 *
 * @example
 * describeIssues(v.safeParse(schema, input).issues ?? []) // 'error_type: Invalid type: Expected string but received 3'
 */
export const describeIssues = (issues: ReadonlyArray<v.BaseIssue<unknown>>) =>
  issues
    .slice(0, 5)
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
