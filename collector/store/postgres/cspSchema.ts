/**
 * Version 14 (schema.ts), as the SQLite store's version 19 (sqlite/cspSchema.ts): `csp_groups`
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

/** Version 16 (schema.ts), as the SQLite store's version 21 (sqlite/cspSchema.ts): CSP source decisions. */
export const POSTGRES_CSP_SOURCE_DECISIONS_MIGRATION = `
  CREATE TABLE csp_source_decisions (
    project_id BIGINT NOT NULL REFERENCES csp_projects (id) ON DELETE CASCADE,
    directive TEXT NOT NULL,
    source TEXT NOT NULL,
    decision TEXT NOT NULL,
    decided_at BIGINT NOT NULL,
    PRIMARY KEY (project_id, directive, source)
  );`;
