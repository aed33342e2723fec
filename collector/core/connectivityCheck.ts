/**
 * The `error_type` of the report `sitebeacon check --site` submits (docs/connectivity-check.md,
 * "`sitebeacon check`"): stored, so the check proves a real submission, but not an error of the site.
 */
export const CONNECTIVITY_CHECK = 'connectivity_check';

/**
 * Whether an error group is `sitebeacon check`'s test submission rather than one of the site's errors.
 *
 * @example
 * isConnectivityCheck({ error_type: 'connectivity_check' }) // true
 */
export const isConnectivityCheck = (group: { error_type: string }) => group.error_type == CONNECTIVITY_CHECK;
