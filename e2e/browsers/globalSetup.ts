import { rmSync } from 'node:fs';
import { PER_BROWSER, writeMeasured } from './supportTable.mjs';

/**
 * Clears the previous run's measurements; after the run, writes test-results/browser-support.json
 * and .md from what each browser's suite measured.
 */
export default function setup() {
  rmSync(PER_BROWSER, { recursive: true, force: true });
  return () => {
    const markdown = writeMeasured();
    if (markdown) console.log(`\nBrowser support (test-results/browser-support.md):\n\n${markdown}\n`);
  };
}
