import { describe, expect, test } from 'vitest';
import { changeIssue, occurIssue, statusAt, type IssueLifecycleState, type IssueOccurrence } from './issueLifecycle';

const T0 = Date.parse('2026-03-01T00:00:00Z');
const HOUR = 3_600_000;

/** Releases in the order they first arrived on the site. */
const orderOf = (...releases: string[]) => (release: string) => {
  const index = releases.indexOf(release);
  return index < 0 ? undefined : index + 1;
};

const occurrence = (fields: Partial<IssueOccurrence> = {}): IssueOccurrence => ({
  fingerprint: 'fp', error_type: 'error', error_message: 'boom', at: T0, ...fields,
});

const first = occurIssue(undefined, occurrence({ release: '1.0' }), orderOf('1.0'));

describe('occurIssue', () => {
  test("a first occurrence makes an unresolved issue seen at its time, in its release", () => {
    expect(first).toEqual({
      fingerprint: 'fp', error_type: 'error', error_name: undefined, error_message: 'boom', first_seen: T0, last_seen: T0,
      first_release: '1.0', last_release: '1.0', status: 'unresolved', regressed: false, resolved_in: null,
      ignore_until_count: null, ignored_occurrences: 0, ignore_until: null,
    });
  });

  test('later occurrences move last_seen and last_release, keep first_seen and first_release; no release keeps the last one', () => {
    const order = orderOf('1.0', '1.1');
    const later = occurIssue(first, occurrence({ at: T0 + HOUR, release: '1.1', error_message: 'boom again' }), order);
    expect(later).toMatchObject({ first_seen: T0, last_seen: T0 + HOUR, first_release: '1.0', last_release: '1.1', error_message: 'boom again' });
    const unnamed = occurIssue(later, occurrence({ at: T0 + 2 * HOUR }), order);
    expect(unnamed).toMatchObject({ last_seen: T0 + 2 * HOUR, last_release: '1.1' });
    // An earlier report (another process's group committed late) moves first_seen, not the latest sample.
    const earlier = occurIssue(unnamed, occurrence({ at: T0 - HOUR, error_message: 'old' }), order);
    expect(earlier).toMatchObject({ first_seen: T0 - HOUR, last_seen: T0 + 2 * HOUR, error_message: 'boom' });
  });

  test('resolved in 1.2: an occurrence from 1.1 or 1.2 leaves it resolved, one from 1.3 regresses it', () => {
    const order = orderOf('1.1', '1.2', '1.3');
    const resolved = changeIssue(first, { status: 'resolved', resolved_in: '1.2' });
    expect(occurIssue(resolved, occurrence({ release: '1.1' }), order)).toMatchObject({ status: 'resolved', regressed: false, resolved_in: '1.2' });
    expect(occurIssue(resolved, occurrence({ release: '1.2' }), order)).toMatchObject({ status: 'resolved', regressed: false });
    expect(occurIssue(resolved, occurrence({ release: '1.3' }), order)).toMatchObject({ status: 'unresolved', regressed: true, resolved_in: null });
  });

  test('the order is of first arrival, not of version numbers', () => {
    const resolved = changeIssue(first, { status: 'resolved', resolved_in: '2.0' });
    // "1.9-hotfix" first arrived after 2.0 did: it regresses.
    expect(occurIssue(resolved, occurrence({ release: '1.9-hotfix' }), orderOf('2.0', '1.9-hotfix')).status).toBe('unresolved');
    expect(occurIssue(resolved, occurrence({ release: '3.0' }), orderOf('3.0', '2.0')).status).toBe('resolved');
  });

  test('resolved in a release not seen yet: nothing regresses it until that release arrived and a later one comes', () => {
    const resolved = changeIssue(first, { status: 'resolved', resolved_in: '2.0' });
    expect(occurIssue(resolved, occurrence({ release: '1.5' }), orderOf('1.0', '1.5')).status).toBe('resolved');
    expect(occurIssue(resolved, occurrence({ release: '2.0' }), orderOf('1.0', '2.0')).status).toBe('resolved');
    expect(occurIssue(resolved, occurrence({ release: '2.1' }), orderOf('1.0', '2.0', '2.1')).status).toBe('unresolved');
  });

  test('an occurrence without a release does not regress a release-resolved issue; without resolved_in any occurrence does', () => {
    const inRelease = changeIssue(first, { status: 'resolved', resolved_in: '1.0' });
    expect(occurIssue(inRelease, occurrence({ release: null }), orderOf('1.0')).status).toBe('resolved');
    const resolved = changeIssue(first, { status: 'resolved' });
    expect(occurIssue(resolved, occurrence({ release: null }), orderOf('1.0'))).toMatchObject({ status: 'unresolved', regressed: true });
    expect(occurIssue(resolved, occurrence({ release: '1.0' }), orderOf('1.0'))).toMatchObject({ status: 'unresolved', regressed: true });
  });

  test('ignored until 5 more occurrences: a report of count 3 and one of count 2 bring it back, not 4', () => {
    const order = orderOf('1.0');
    const ignored = changeIssue(first, { status: 'ignored', ignore_until_count: 5 });
    const three = occurIssue(ignored, occurrence({ count: 3 }), order);
    expect(three).toMatchObject({ status: 'ignored', ignored_occurrences: 3 });
    expect(occurIssue(three, occurrence(), order)).toMatchObject({ status: 'ignored', ignored_occurrences: 4 });
    expect(occurIssue(three, occurrence({ count: 2 }), order)).toMatchObject({
      status: 'unresolved', regressed: false, ignore_until_count: null, ignored_occurrences: 0,
    });
  });

  test('ignored until a time: an occurrence before it leaves it ignored, one after brings it back', () => {
    const ignored = changeIssue(first, { status: 'ignored', ignore_until: T0 + HOUR });
    expect(occurIssue(ignored, occurrence({ at: T0 + HOUR }), orderOf()).status).toBe('ignored');
    expect(occurIssue(ignored, occurrence({ at: T0 + HOUR + 1 }), orderOf())).toMatchObject({ status: 'unresolved', ignore_until: null });
  });

  test('ignored with neither stays ignored', () => {
    const ignored = changeIssue(first, { status: 'ignored' });
    expect(occurIssue(ignored, occurrence({ at: T0 + 1000 * HOUR, count: 1000 }), orderOf()).status).toBe('ignored');
  });
});

describe('changeIssue', () => {
  const regressed: IssueLifecycleState = { ...first, regressed: true };

  test("clears regressed and the fields the new status does not use", () => {
    const ignored = changeIssue({ ...regressed, status: 'resolved', resolved_in: '1.0' }, { status: 'ignored', ignore_until_count: 10, resolved_in: '9' });
    expect(ignored).toMatchObject({ status: 'ignored', regressed: false, resolved_in: null, ignore_until_count: 10, ignore_until: null, ignored_occurrences: 0 });
    const resolved = changeIssue({ ...ignored, ignored_occurrences: 4 }, { status: 'resolved', resolved_in: '1.0', ignore_until: T0 });
    expect(resolved).toMatchObject({ status: 'resolved', resolved_in: '1.0', ignore_until_count: null, ignore_until: null, ignored_occurrences: 0 });
    expect(changeIssue(resolved, { status: 'unresolved' })).toMatchObject({ status: 'unresolved', resolved_in: null, regressed: false });
  });

  test('keeps what ingest keeps: seen times, releases, the sample', () => {
    expect(changeIssue(regressed, { status: 'resolved' })).toMatchObject({ first_seen: T0, last_seen: T0, first_release: '1.0', error_message: 'boom' });
  });
});

describe('statusAt', () => {
  test('an issue ignored until a past time reads unresolved; until a future time, ignored; other statuses as stored', () => {
    const ignored = changeIssue(first, { status: 'ignored', ignore_until: T0 + HOUR });
    expect(statusAt(ignored, T0 + HOUR)).toBe('ignored');
    expect(statusAt(ignored, T0 + HOUR + 1)).toBe('unresolved');
    expect(statusAt(changeIssue(first, { status: 'ignored', ignore_until_count: 3 }), T0 + 1000 * HOUR)).toBe('ignored');
    expect(statusAt(changeIssue(first, { status: 'resolved' }), T0)).toBe('resolved');
  });
});
