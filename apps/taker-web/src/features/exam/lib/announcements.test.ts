import { describe, expect, it } from 'vitest';
import { crossedTimerMark, saveStateAnnouncement } from './announcements.ts';

describe('crossedTimerMark', () => {
  it('gives the mark crossed between two readings', () => {
    expect(crossedTimerMark(601, 600)).toBe(10);
    expect(crossedTimerMark(301, 300)).toBe(5);
    expect(crossedTimerMark(61, 60)).toBe(1);
    expect(crossedTimerMark(600, 599)).toBeNull();
    expect(crossedTimerMark(700, 650)).toBeNull();
  });

  it('gives the lowest mark when a jump passes several, and nothing for a first reading or added time', () => {
    expect(crossedTimerMark(700, 30)).toBe(1);
    expect(crossedTimerMark(null, 30)).toBeNull();
    expect(crossedTimerMark(30, 900)).toBeNull();
  });
});

describe('saveStateAnnouncement', () => {
  it('announces offline, and the first saved after it', () => {
    expect(saveStateAnnouncement('saving', 'offline', false)).toEqual({ announce: 'offline', wasOffline: true });
    expect(saveStateAnnouncement('offline', 'saving', true)).toEqual({ announce: null, wasOffline: true });
    expect(saveStateAnnouncement('saving', 'saved', true)).toEqual({ announce: 'back-online', wasOffline: false });
    expect(saveStateAnnouncement('saving', 'saved', false)).toEqual({ announce: null, wasOffline: false });
    expect(saveStateAnnouncement('offline', 'offline', true)).toEqual({ announce: null, wasOffline: true });
  });
});
