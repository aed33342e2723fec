import type * as records from '../collector/core/records';

// The collector's keys, typed by its own constants: the build takes no collector module but the
// path helper, and a changed key fails to compile here instead of slipping a site into the wrong list.
const DASHBOARD_SITE_KEY: typeof records.DASHBOARD_SITE_KEY = 'dashboard';
const DEFAULT_SITE_KEY: typeof records.DEFAULT_SITE_KEY = 'default';

/**
 * Whether a site is one the collector keeps for itself rather than one its owner added: the
 * dashboard's own CSP reports (`serve` creates it under DASHBOARD_SITE_KEY) and the default site the
 * spec's unkeyed endpoints store under (section 4; created with the database). Both keys are fixed
 * (`serve` puts the dashboard's site under its key at every start; the default site's key cannot be
 * rotated), so the read API's `site_key` tells them apart with no field of its own.
 *
 * @example
 * isCollectorSite({ site_key: 'dashboard' }) // true
 * isCollectorSite({ site_key: '3f2a…' }) // false
 */
export const isCollectorSite = (site: { site_key: string }) => site.site_key == DASHBOARD_SITE_KEY || site.site_key == DEFAULT_SITE_KEY;
