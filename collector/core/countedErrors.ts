/**
 * The error type of the test report `sitebeacon check --site` and the WordPress plugin's
 * connectivity check submit (spec section 7: "connectivity succeeds but reports fail" is found by
 * sending one). It is stored like any report, so it can be seen and exported, but it is no error of
 * the site's.
 */
export const CONNECTIVITY_CHECK_ERROR_TYPE = 'connectivity_check';

/** Error types stored but left out of summaries and the dashboard's counts. */
export const UNCOUNTED_ERROR_TYPES: readonly string[] = [CONNECTIVITY_CHECK_ERROR_TYPE];
