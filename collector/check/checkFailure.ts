/**
 * The exit codes of `sitebeacon check` (docs/connectivity-check.md): one per condition of
 * spec section 7, so that a script can tell them apart without reading the text.
 */
export const EXIT_CODES = {
  passed: 0,
  usage: 2,
  dns: 3,
  connect: 4,
  tls: 5,
  intervention: 6,
  notCollector: 7,
  submission: 8,
  page: 9,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** A step that failed for a known cause: its exit code and the sentence that names the cause. */
export class CheckFailure extends Error {
  constructor(
    readonly exitCode: ExitCode,
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * A failure of a check step, with its exit code and its one-line explanation.
 *
 * @example
 * throw checkFailure(EXIT_CODES.dns, 'DNS on this machine cannot resolve collector.example (ENOTFOUND)');
 */
export const checkFailure = (exitCode: ExitCode, detail: string) => new CheckFailure(exitCode, detail);
