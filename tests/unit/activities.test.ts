// Pure rules of the activities and the win notice: an activity's status at a moment, and how a
// winner's username is masked.
import { describe, expect, it } from 'vitest';
import { activityStatus, maskUsername } from '../../src/api-contract/activities.ts';
import { checkSummary } from '../../src/features/blindbox/blindbox-store.ts';

describe('activityStatus', () => {
  const start = new Date('2026-12-01T00:00:00Z');
  const end = new Date('2026-12-31T00:00:00Z');
  it('is upcoming before the start, running from it, ended from the end on', () => {
    expect(activityStatus(start, end, new Date('2026-11-30T23:59:59Z'))).toBe('upcoming');
    expect(activityStatus(start, end, start)).toBe('running');
    expect(activityStatus(start, end, new Date('2026-12-30T23:59:59Z'))).toBe('running');
    expect(activityStatus(start, end, end)).toBe('ended');
    expect(activityStatus(start, null, new Date('2030-01-01T00:00:00Z'))).toBe('running');
  });
});

describe('maskUsername', () => {
  it('keeps enough to recognise oneself and never the whole name', () => {
    expect(maskUsername('demo')).toBe('d***o');
    expect(maskUsername('demouser')).toBe('de***r');
    expect(maskUsername('0812345678')).toBe('08***8');
    expect(maskUsername('ab')).toBe('a***');
    expect(maskUsername('x')).toBe('x***');
    expect(maskUsername('ผู้ใช้งาน')).toMatch(/^.{2}\*\*\*.$/u);
  });
});

describe('the verification summary', () => {
  it('counts verified, mismatched and unrevealed draws; a draw not yet checked counts in none', () => {
    const draws = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }];
    expect(checkSummary(draws, { 1: 'verified', 2: 'mismatch', 3: 'unrevealed' })).toEqual({
      verified: 1,
      mismatched: 1,
      unrevealed: 1,
    });
  });
});
