/**
 * Version 14 (schema.ts), as the SQLite store's version 19 (sqlite/cspGroupsSchema.ts): `csp_groups`
 * per disposition (docs/csp-reports.md, "Blocked first"), rebuilt from the stored reports.
 */
export const POSTGRES_CSP_GROUP_DISPOSITION_MIGRATION = `
  ALTER TABLE csp_groups DROP CONSTRAINT csp_groups_pkey;
  ALTER TABLE csp_groups ADD COLUMN disposition TEXT NOT NULL DEFAULT 'report';
  DELETE FROM csp_groups;
  INSERT INTO csp_groups (site_key, directive, blocked_host, disposition, day, reports)
    SELECT site_key, effective_directive, coalesce(blocked_host, ''), CASE WHEN disposition = 'enforce' THEN 'enforce' ELSE 'report' END,
      received_at / 86400000, COUNT(*)
    FROM csp_reports WHERE report_type = 'csp-violation' AND effective_directive IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5;
  ALTER TABLE csp_groups ALTER COLUMN disposition DROP DEFAULT;
  ALTER TABLE csp_groups ADD PRIMARY KEY (site_key, directive, blocked_host, disposition, day);`;
