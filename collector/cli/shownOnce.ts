/**
 * A secret the CLI prints once (an API key, a generated password), on a line of its own, and why
 * it cannot be printed again: the collector keeps only its hash.
 *
 * @example
 * `Created user ${email}.` + shownOnce(`password: ${password}`, 'scrypt hash')
 * // 'Created user ann@shop.example.\n\n  password: …\n\nIt is shown only this once; the collector keeps only its scrypt hash.'
 */
export const shownOnce = (secret: string, hash: string) => `\n\n  ${secret}\n\nIt is shown only this once; the collector keeps only its ${hash}.`;
