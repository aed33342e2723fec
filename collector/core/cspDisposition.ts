/** Whether a violation was blocked (`enforce`) or only reported (`report`): docs/csp-reports.md, "Blocked first". */
export type CspDisposition = 'enforce' | 'report';

/**
 * The disposition a CSP group counts a stored report under: `enforce` when the report says its
 * policy was enforced, `report` otherwise (a report-only policy, or a report that does not say).
 * The stores' SQL writes the same rule as `CASE WHEN disposition = 'enforce' ...`.
 *
 * @example
 * groupDisposition('enforce') // 'enforce'
 * groupDisposition(undefined) // 'report'
 */
export const groupDisposition = (disposition: string | null | undefined): CspDisposition => (disposition == 'enforce' ? 'enforce' : 'report');
