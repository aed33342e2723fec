/** `sitebeacon --help`: every command of the command table (commands.ts), in one text. */
export const USAGE = `Usage: sitebeacon <command> [options]

Commands:
  serve [--port 8787] [--host 127.0.0.1] [--public-url URL] [--demo]
        [--tls-cert FILE --tls-key FILE] [--rate-limit N] [--site-rate-limit N] [--trust-proxy]
        [--max-connections-per-client N]
        [--log-level info|warn|error|silent] [--ingest-url URL] [--sync normal|full]
        [--agent-updates-dir DIR [--agent-signing-key FILE]] [--retention-days N]
                        run the collector and its dashboard at / (--demo also serves a demo
                        page at /demo and creates a demo user, printed with its password,
                        removed when it stops and by a later start without --demo);
                        rate limits are requests per second per client IP (default 20) and
                        per site (default 500), 0 turns one off; at most N open connections
                        per client address (default 64; with --trust-proxy, off unless given:
                        the proxy's address is every client's); --sync full (SQLite): every
                        commit is fsynced before reports are acknowledged (power-loss safe;
                        normal: safe when the process dies); --json prints one line
                        {"url": ...} once it listens; --retention-days deletes reports and
                        sessions older than N days, in small batches, every minute
  site add --origin URL [--origin URL...] [--name NAME] [--public-url URL] [--ingest-url URL]
                        create a site; prints its key, its snippet (the early-capture stub,
                        then the script tag) and the CSP sources its pages need
  snippet --site SITE_KEY [--no-stub] [--public-url URL] [--ingest-url URL]
                        the site's snippet (the early-capture stub, then the script tag with
                        its SRI hash) and the CSP sources its pages need, the stub's
                        'sha256-…' among them; --no-stub: the script tag alone, and its
                        sources without the hash; --json: the whole setup, both snippets
  site rotate-key --site SITE_KEY [--public-url URL] [--ingest-url URL]
                        a new public key for the site (its data moves along); prints it, the
                        new snippet and its CSP sources; the old key is refused from the next
                        request on
  action add --site SITE_KEY --type TYPE [--payload JSON]
                        queue an action for a WordPress site's next check-in
  key create [--site SITE_KEY] [--name NAME]
                        create an API key (for one site, or the whole installation:
                        only that reads GET /metrics); printed once, stored only as a hash
  key revoke KEY        the API key is refused from the next request on
  agent revoke AGENT_ID the server agent's token is refused from the next request on
  wordpress revoke --site SITE_KEY
                        remove the site's WordPress installation and its pending actions
                        (revoke its plugin's API key too, or it can register again)
  user add --email EMAIL [--site SITE_KEY...] [--password-stdin]
                        create a dashboard user who sees every site, or only those named;
                        without --password-stdin a password is generated and printed once
  user remove EMAIL     delete the user; their sessions end from the next request on
  user reset-password EMAIL [--password-stdin]
                        a new password (generated and printed once without --password-stdin);
                        every session of the user ends from the next request on
  user sign-out EMAIL   end every session of the user from the next request on
  export --site SITE_KEY --kind errors|csp|performance [--since ISO]
                        print stored records as NDJSON (read-only: a database that needs
                        sitebeacon migrate is refused, not migrated)
  migrate               apply the schema versions the database lacks (serve does too);
                        safe while other collectors start
  backup FILE           copy the SQLite store to FILE while collectors run (SQLite's online
                        backup; for PostgreSQL use pg_dump)
  restore BACKUP        put an SQLite backup in place of the database, the collector stopped
                        (refused while any process has the file open): checks its integrity,
                        installs it atomically and removes the replaced file's -wal and -shm
  check URL [--site SITE_KEY] [--page PAGE_URL] [--connect-timeout S] [--timeout S] [--ca FILE]
                        diagnose, from this machine, why reports may not arrive (see check --help)

Every command takes --db FILE (SQLite; default ./data/sitebeacon.db, env SITEBEACON_DB) or
--database-url postgres://USER@HOST:PORT/DB (PostgreSQL, env SITEBEACON_DATABASE_URL: any number
of collectors may share one database), and --json.
Env: SITEBEACON_PORT, SITEBEACON_HOST, SITEBEACON_PUBLIC_URL, SITEBEACON_INGEST_URL, SITEBEACON_LOG_LEVEL,
SITEBEACON_SYNC.
`;
