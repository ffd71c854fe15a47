import { describe, expect, it } from 'vitest';
import { RosterEntryInputSchema, RosterMessages } from './roster.ts';

describe('roster entry', () => {
  it('trims the fields, lower-cases the e-mail and reads an empty or missing e-mail as none', () => {
    expect(RosterEntryInputSchema.parse({ name: ' Ada ', candidateId: ' S-1 ', email: ' Ada@Example.ORG ' })).toEqual({
      name: 'Ada',
      candidateId: 'S-1',
      email: 'ada@example.org',
    });
    expect(RosterEntryInputSchema.parse({ name: 'Ada', candidateId: 'S-1', email: '' }).email).toBeNull();
    expect(RosterEntryInputSchema.parse({ name: 'Ada', candidateId: 'S-1' }).email).toBeNull();
  });

  it('names the field of a missing ID or name, or a malformed e-mail', () => {
    const result = RosterEntryInputSchema.safeParse({ name: ' ', candidateId: '', email: 'nope' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['name', RosterMessages.nameRequired],
      ['candidateId', RosterMessages.candidateIdRequired],
      ['email', RosterMessages.badEmail],
    ]);
  });
});
