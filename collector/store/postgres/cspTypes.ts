import { CSP_REPORT_COLUMNS } from '../cspReportColumns';

/** The types of CSP_COLUMNS (../cspReportColumns.ts), in order. */
export const CSP_TYPES = [
  'text', 'int8', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'int8', 'int8', 'int8', 'text',
  'float8', 'text', 'text', 'text', 'text', 'text', 'text', 'text',
];

/** The types of CSP_REPORT_COLUMNS: CSP_COLUMNS is site_key, received_at, user_agent, visitor, then those. */
export const CSP_REPORT_TYPES = CSP_TYPES.slice(4, 4 + CSP_REPORT_COLUMNS.length);
