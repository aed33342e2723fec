import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { migrate } from './migrations';

const DAY = 86_400_000;

test('schema version 13 fills issues from the per-day aggregates: all-time seen times, the latest day\'s texts, unresolved; old reports keep null clients', () => {
  const db = new Database(':memory:');
  migrate(db, 12);
  db.prepare(`INSERT INTO sites (site_key, name, allowed_origins, created_at) VALUES ('shop', 'Shop', '[]', 0)`).run();
  const group = db.prepare('INSERT INTO error_groups VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  group.run('shop', 'aaaa', 10, 2, 3, 10 * DAY + 5, 10 * DAY + 9, 'javascript_error', null, 'old message');
  group.run('shop', 'aaaa', 12, 1, 1, 12 * DAY + 1, 12 * DAY + 2, 'javascript_error', 'TypeError', 'new message');
  group.run('shop', 'bbbb', 11, 1, 1, 11 * DAY, 11 * DAY, 'resource_error', null, 'img failed');
  db.prepare(`INSERT INTO error_reports (site_key, received_at, error_type, error_message, fingerprint, user_agent) VALUES ('shop', 1, 'x', 'y', 'aaaa', 'Mozilla/5.0')`).run();

  migrate(db, 13);
  expect(db.prepare('SELECT * FROM issues ORDER BY fingerprint').all()).toEqual([
    {
      site_key: 'shop', fingerprint: 'aaaa', error_type: 'javascript_error', error_name: 'TypeError', error_message: 'new message',
      first_seen: 10 * DAY + 5, last_seen: 12 * DAY + 2, first_release: null, last_release: null, status: 'unresolved', regressed: 0,
      resolved_in: null, ignore_until_count: null, ignored_occurrences: 0, ignore_until: null,
    },
    expect.objectContaining({ fingerprint: 'bbbb', error_message: 'img failed', first_seen: 11 * DAY, last_seen: 11 * DAY }),
  ]);
  expect(db.prepare('SELECT browser, os, device, bot, release, environment FROM error_reports').get()).toEqual({
    browser: null, os: null, device: null, bot: null, release: null, environment: null,
  });
  db.close();
});
