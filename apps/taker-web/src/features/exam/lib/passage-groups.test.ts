import { describe, expect, it } from 'vitest';
import { passageRuns } from './passage-groups.ts';

describe('passageRuns', () => {
  it('groups consecutive questions sharing a passage and leaves the others alone', () => {
    const runs = passageRuns(
      [{ passageId: 'a' }, { passageId: 'a' }, { passageId: null }, {}, { passageId: 'a' }, { passageId: 'b' }],
      new Set(['a', 'b']),
    );
    expect(runs).toEqual([
      { passageId: 'a', indexes: [0, 1] },
      { passageId: null, indexes: [2] },
      { passageId: null, indexes: [3] },
      { passageId: 'a', indexes: [4] },
      { passageId: 'b', indexes: [5] },
    ]);
  });

  it('splits a run at a section boundary and ignores a passage the exam does not carry', () => {
    const runs = passageRuns(
      [
        { passageId: 'a', sectionId: 's1' },
        { passageId: 'a', sectionId: 's2' },
        { passageId: 'missing' },
        { passageId: 'missing' },
      ],
      new Set(['a']),
    );
    expect(runs).toEqual([
      { passageId: 'a', indexes: [0] },
      { passageId: 'a', indexes: [1] },
      { passageId: null, indexes: [2] },
      { passageId: null, indexes: [3] },
    ]);
  });
});
