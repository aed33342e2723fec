import * as v from 'valibot';

/** Turns valibot issues into the message of a 400 `invalid_report`: where, and what is wrong. */
export const describeIssues = (issues: v.BaseIssue<unknown>[]) =>
  issues
    .slice(0, 5)
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
