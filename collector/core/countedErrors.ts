import { CONNECTIVITY_CHECK } from './connectivityCheck';

/** Error types stored but left out of summaries and the dashboard's counts: the test reports of `sitebeacon check`. */
export const UNCOUNTED_ERROR_TYPES: readonly string[] = [CONNECTIVITY_CHECK];
