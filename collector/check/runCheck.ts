import type { CheckContext } from './checkContext';
import { CheckFailure, EXIT_CODES } from './checkFailure';
import { checkConnection } from './connection/checkConnection';
import { checkConnectivity } from './submission/checkConnectivity';
import { checkPage } from './page/checkPage';
import { checkSubmission } from './submission/checkSubmission';
import { createDeadline } from './createDeadline';
import { createReporter, type CheckOutput } from './report/createReporter';
import { CHECK_USAGE, parseCheckArgs } from './parseCheckArgs';
import { proxyFor } from './connection/proxyFor';
import type { Resolver } from './connection/resolveHost';
import { createSystemResolver } from './connection/systemResolver';
import { trustedCertificates } from './connection/trustedCertificates';

/** What `runCheck` is given: the command's arguments and environment, and what tests replace. */
export interface CheckOptions {
  /** The arguments after `check`. */
  argv: string[];
  /** For `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, `NODE_EXTRA_CA_CERTS`. */
  env: Record<string, string | undefined>;
  /** DNS; the system resolver unless a test injects one. */
  resolver?: Resolver;
  /** This machine's clock, against which certificates are judged. */
  now?: () => Date;
}

/**
 * `sitebeacon check URL [--site SITE_KEY] [--page PAGE_URL] [--connect-timeout S] [--timeout S]
 * [--ca FILE] [--json]`: diagnoses, in order, what spec section 7 lists (docs/connectivity-check.md),
 * printing one line (or JSON object) per step, and resolves with the exit code:
 * 0 all passed, 2 usage, 3 DNS, 4 connect or timeout, 5 TLS, 6 proxy or WAF, 7 not a collector,
 * 8 submission refused, 9 page CSP or allowed origin. The whole run ends within `--timeout`.
 *
 * @example
 * const code = await runCheck({ argv: ['https://collector.example/api', '--site', 'abc'], env: process.env },
 *   { out: console.log, err: console.error });
 */
export const runCheck = async (options: CheckOptions, output: CheckOutput): Promise<number> => {
  const args = parseCheckArgs(options.argv);
  if (typeof args == 'string') {
    output.err(`sitebeacon check: ${args}\n\n${CHECK_USAGE}`);
    return EXIT_CODES.usage;
  }
  if (args.help) {
    output.out(CHECK_USAGE);
    return EXIT_CODES.passed;
  }
  const proxy = proxyFor(args.target, options.env);
  if (typeof proxy == 'string') {
    output.err(`sitebeacon check: ${proxy}`);
    return EXIT_CODES.usage;
  }
  let trusted;
  try {
    trusted = trustedCertificates({ extraCaFile: args.ca, env: options.env });
  } catch (error) {
    output.err(`sitebeacon check: ${(error as Error).message}`);
    return EXIT_CODES.usage;
  }
  const deadline = createDeadline(args.timeoutMs);
  const system = options.resolver ? undefined : createSystemResolver();
  const context: CheckContext = {
    target: args.target,
    proxy,
    env: options.env,
    resolver: options.resolver ?? system!.resolver,
    trusted,
    deadline,
    connectTimeoutMs: args.connectTimeoutMs,
    now: options.now ?? (() => new Date()),
  };
  const reporter = createReporter(output, args.json);
  try {
    // The resolver's start-up is not the dns step's time; the deadline still bounds it.
    await Promise.race([system?.ready, new Promise((resolve) => deadline.signal.addEventListener('abort', resolve, { once: true }))]);
    const { socket, route } = await checkConnection(context, reporter.step);
    await checkConnectivity(context, socket, reporter.step);
    if (args.site !== undefined) await checkSubmission(context, route, args.site, reporter.step);
    if (args.page) await checkPage(context, route, args.page, args.site, reporter.step);
    if (!args.json) {
      output.out(`All ${reporter.results.length} steps passed: this machine reaches the collector at ${args.target.apiBase}.`);
      if (!args.page) output.out('A server-side check does not prove that visitors\' browsers can send reports (spec section 1): add --page PAGE_URL to check the page\'s CSP.');
    }
    return EXIT_CODES.passed;
  } catch (error) {
    const code = error instanceof CheckFailure ? error.exitCode : 1;
    const failed = reporter.results.find((result) => !result.ok)?.step ?? 'check';
    if (!args.json) output.out(`Check failed at step "${failed}" (exit ${code}).`);
    return code;
  } finally {
    deadline.dispose();
    system?.close();
  }
};
