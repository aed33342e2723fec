/** The longest title shown: a list row's line, not the report (the full message is in its events). */
export const MAX_TITLE = 200;

/** The longest URL a resource error's title shows before it is cut. */
const MAX_URL = 160;

/**
 * What the list says of "Script error." (docs/issues.md, "Titles"): the browser hides a script of
 * another origin's error unless the script is fetched with CORS, so the fix is on the tag and on
 * the script's response, not in the site's code.
 */
export const SCRIPT_ERROR_EXPLANATION =
  'The browser hides the details of an error thrown by a script of another origin. Add the crossorigin attribute to that ' +
  "script's tag (<script src=\"…\" crossorigin>) and send Access-Control-Allow-Origin on the script's response: the next reports will say what failed.";

/** An issue's title and, where the title alone does not say what to do, an explanation. */
export interface IssueTitle {
  title: string;
  explanation: string | null;
}

const bounded = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * A failing resource's URL as a title shows it: without credentials, query and fragment (a signed
 * query string is a secret and makes one file look like many), bounded.
 *
 * @example
 * cleanResourceUrl('https://cdn.example/app.js?v=3#x') // 'https://cdn.example/app.js'
 */
export const cleanResourceUrl = (url: string) => {
  const text = url.trim();
  if (!URL.canParse(text)) return bounded(text.split(/[?#]/)[0]!, MAX_URL);
  const parsed = new URL(text);
  // origin is "null" for data:, blob: and other non-hierarchical URLs: keep their scheme alone.
  const base = parsed.origin == 'null' ? `${parsed.protocol}…` : `${parsed.origin}${parsed.pathname}`;
  return bounded(base, MAX_URL);
};

/** The first line of a message, its whitespace collapsed. */
const firstLine = (text: string) => (text.split('\n', 1)[0] ?? '').replace(/\s+/g, ' ').trim();

/**
 * An issue's title (docs/issues.md, "Titles"): a failed resource by its cleaned URL, "Script error."
 * with the explanation of its fix, else the error's name and the first line of its message.
 *
 * @example
 * issueTitle({ error_type: 'resource_error', error_message: 'script failed to load', source_url: 'https://cdn.example/app.js?v=2' }).title
 * // 'Failed to load https://cdn.example/app.js'
 */
export const issueTitle = (issue: { error_type: string; error_name?: string | undefined; error_message: string; source_url?: string | null | undefined }): IssueTitle => {
  if (issue.error_type == 'resource_error' && issue.source_url) {
    return { title: `Failed to load ${cleanResourceUrl(issue.source_url)}`, explanation: null };
  }
  const message = firstLine(issue.error_message);
  if (/^script error\.?$/i.test(message)) return { title: 'Script error.', explanation: SCRIPT_ERROR_EXPLANATION };
  const name = issue.error_name?.trim();
  const title = name && !message.startsWith(name) ? (message ? `${name}: ${message}` : name) : message || issue.error_type;
  return { title: bounded(title, MAX_TITLE), explanation: null };
};
