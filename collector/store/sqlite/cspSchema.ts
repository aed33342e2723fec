/**
 * Schema version 19 (migrations.ts): `csp_groups` counts each directive and blocked host per
 * disposition, so that the read API lists what an enforced policy blocked above what a report-only
 * one would have (docs/csp-reports.md, "Blocked first"). The per-day aggregate is rebuilt from the
 * stored reports, as version 5 built it, with each report's disposition as core/cspDisposition.ts
 * reads it: `enforce`, or `report` for anything else.
 */
export const CSP_GROUP_DISPOSITION_MIGRATION = `
  CREATE TABLE csp_groups_by_disposition (
    site_key TEXT NOT NULL,
    directive TEXT NOT NULL,
    blocked_host TEXT NOT NULL,
    disposition TEXT NOT NULL,
    day INTEGER NOT NULL,
    reports INTEGER NOT NULL,
    PRIMARY KEY (site_key, directive, blocked_host, disposition, day)
  ) WITHOUT ROWID;
  INSERT INTO csp_groups_by_disposition
    SELECT site_key, effective_directive, coalesce(blocked_host, ''), CASE WHEN disposition = 'enforce' THEN 'enforce' ELSE 'report' END,
      received_at / 86400000, COUNT(*)
    FROM csp_reports WHERE report_type = 'csp-violation' AND effective_directive IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5;
  DROP TABLE csp_groups;
  ALTER TABLE csp_groups_by_disposition RENAME TO csp_groups;`;

/**
 * Schema version 21 (migrations.ts): an owner's decision on each source a CSP project's suggestion
 * would add (docs/csp-reports.md, "Evidence per source"), removed with its project by a trigger
 * (foreign keys are not enforced on these connections).
 */
export const CSP_SOURCE_DECISIONS_MIGRATION = `
  CREATE TABLE csp_source_decisions (
    project_id INTEGER NOT NULL,
    directive TEXT NOT NULL,
    source TEXT NOT NULL,
    decision TEXT NOT NULL,
    decided_at INTEGER NOT NULL,
    PRIMARY KEY (project_id, directive, source)
  ) WITHOUT ROWID;
  CREATE TRIGGER csp_projects_delete_decisions AFTER DELETE ON csp_projects BEGIN
    DELETE FROM csp_source_decisions WHERE project_id = old.id;
  END;`;
