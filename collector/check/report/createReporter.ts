import { CheckFailure } from '../checkFailure';
import { printable } from './printable';

/** Where the check writes: step lines to `out`, usage errors to `err` (the CLI's streams). */
export interface CheckOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** One step's result; with `--json`, each is printed as one object (docs/connectivity-check.md). */
export interface StepResult {
  step: string;
  ok: boolean;
  ms: number;
  detail: string;
}

/** Runs one step: `work` tells its detail through `say` and returns what later steps need. */
export type RunStep = <T>(step: string, work: (say: (detail: string) => void) => Promise<T>) => Promise<T>;

const line = ({ step, ok, ms, detail }: StepResult) => `${ok ? 'ok  ' : 'FAIL'} ${step.padEnd(10)} ${String(ms).padStart(6)} ms  ${detail}`;

/**
 * Times each step and prints exactly one line for it, or one JSON object with `--json`: when it
 * passes, the detail its work gave; when it fails, the failure's sentence. A failure is rethrown
 * so that the check stops there ("checks, in order").
 *
 * @example
 * const reporter = createReporter(output, false);
 * const addresses = await reporter.step('dns', async (say) => { say('resolves to 127.0.0.1'); return [...]; });
 */
export const createReporter = (output: CheckOutput, json: boolean) => {
  const results: StepResult[] = [];
  const print = (result: StepResult) => {
    results.push(result);
    output.out(json ? JSON.stringify(result) : line(result));
  };
  const step: RunStep = async (name, work) => {
    const started = performance.now();
    let detail = '';
    try {
      const value = await work((text) => (detail = text));
      print({ step: name, ok: true, ms: Math.round(performance.now() - started), detail });
      return value;
    } catch (error) {
      const message = error instanceof CheckFailure ? error.message : `unexpected error: ${printable(String((error as Error)?.message ?? error))}`;
      print({ step: name, ok: false, ms: Math.round(performance.now() - started), detail: message });
      throw error;
    }
  };
  return { step, results };
};
