import { strFromU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ExamSchema } from '@exam/domain/exam';
import { importQti } from './qti-import.ts';
import { exportQti } from './qti-export.ts';
import { type ExchangeExam } from './qti-shared.ts';
import { fixture, zipFolder } from './testing.ts';
import { childrenNamed, parseXml, descendants } from './xml.ts';

/** An exam with every question type and every field the platform models, as the service stores it. */
function sampleExam(): ExchangeExam {
  const exam = ExamSchema.parse({
    id: 'e1',
    ownerId: 'u1',
    title: 'Databases & "SQL" <midterm>',
    description: 'Covers joins.\n\nBring a pen.',
    header: 'Week 7',
    rules: 'No phones.',
    timerEnabled: true,
    timerMinutes: 45,
    fullScreenEnabled: true,
    questionDisplay: 'one',
    releasePolicy: 'immediately',
    showAnswerKeys: true,
    shuffleQuestions: true,
    shuffleOptions: true,
    attemptsAllowed: 2,
    keepGrade: 'last',
    access: 'roster',
    opensAt: '2026-01-01T09:00:00.000Z',
    closesAt: '2026-01-02T09:00:00.000Z',
    similarityThreshold: 0.7,
    codingWorkspace: {
      enabled: true,
      saveFilesInResults: false,
      workspaceType: 'vscode',
      allowPackageRegistries: true,
    },
    rubrics: [{ id: 'r1', title: 'Essay', criteria: [{ id: 'c1', description: 'Clear', points: 2 }] }],
    pools: [{ id: 'p1', title: 'Warm-up', draw: 1, points: 1 }],
    questions: [
      {
        id: 'mcq1',
        type: 'mcq',
        title: 'Pick the join',
        content: 'Which join keeps **all** rows?\n\n  indented `code`  \nline two',
        topic: 'joins',
        points: 2.5,
        options: ['INNER', 'LEFT  OUTER', 'a < b & c'],
        correctAnswer: 'a < b & c',
        poolId: null,
      },
      {
        id: 'mcq2',
        type: 'mcq',
        title: 'Pick many',
        options: ['x', 'y', 'z'],
        multipleAnswers: true,
        correctAnswers: ['x', 'z'],
        scoring: 'partial',
        points: 3,
        poolId: 'p1',
      },
      { id: 'mcq3', type: 'mcq', title: 'Opinion', options: ['a', 'b'], poolId: 'p1' },
      {
        id: 'sa1',
        type: 'short-answer',
        title: 'Pi',
        acceptedAnswers: ['3.14', 'pi'],
        matching: { caseSensitive: true, numeric: { tolerance: 0.01, mode: 'relative' } },
        rubricId: 'r1',
        points: 4,
      },
      { id: 'fu1', type: 'file-upload', title: 'Upload the diagram', content: 'PDF only', points: 5 },
      {
        id: 'c1',
        type: 'coding',
        title: 'Sum',
        language: 'python',
        starterCode: 'def add(a, b):\n    pass\n',
        referenceSolution: 'def add(a, b):\n    return a + b\n',
        tests: [
          { id: 't1', name: 'small', stdin: '1 2', expected: '3', points: 2, visible: true },
          { id: 't2', stdin: '5 5', expected: '10', comparison: 'numeric', tolerance: 0.5, points: 1 },
        ],
        limits: { cpuSeconds: 1, memoryMb: 128 },
        workspaceFile: 'q1/solution.py',
        repository: {
          files: [{ path: 'src/add.py', content: 'def add(a, b):\n    pass\n' }],
          hiddenFiles: [
            { path: 'main.py', content: 'from src.add import add\nprint(add(*map(int, input().split())))\n' },
          ],
        },
      },
      { id: 'c2', type: 'coding', title: 'Explain', language: 'sql', setupScript: 'create table t(x int);' },
    ],
    aiSettings: { hasApiKey: false, apiKeyLast4: null, courseMaterials: [] },
    hasAccessCode: false,
    isLive: false,
    isDraft: true,
    publishedAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastEditedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  const { id: _i, ownerId: _o, aiSettings: _a, hasAccessCode: _h, isLive: _l, isDraft: _d, ...rest } = exam;
  const { publishedAt: _p, createdAt: _c, lastEditedAt: _e, updatedAt: _u, ...exchange } = rest;
  return exchange;
}

describe('QTI 3.0 export and import', () => {
  it('round-trips an exam with every question type and setting', () => {
    const exam = sampleExam();
    const read = importQti(exportQti(exam));
    expect(read.notImported).toEqual([]);
    expect(read.title).toBe(exam.title);
    expect(read.questions).toEqual(exam.questions);
    expect({ ...read.settings, questions: exam.questions }).toEqual(exam);
  });

  it('round-trips sections: each a qti-assessment-section with its questions, pools and time limit, the assistant rule in the extension', () => {
    const exam: ExchangeExam = {
      ...sampleExam(),
      sections: [
        { id: 's-alone', title: 'On your own', assistant: false, timeLimitMinutes: 20 },
        { id: 's-aided', title: '', assistant: true, timeLimitMinutes: null },
      ],
    };
    // The pool and the coding questions in the aided section; the rest in the first (named or not).
    exam.questions = exam.questions.map((q) => ({
      ...q,
      sectionId: q.poolId === 'p1' || q.type === 'coding' ? 's-aided' : q.id === 'mcq1' ? null : 's-alone',
    }));
    const package_ = exportQti(exam);
    const read = importQti(package_);
    expect(read.notImported).toEqual([]);
    expect(read.questions).toEqual(exam.questions);
    expect(read.settings?.sections).toEqual(exam.sections);
    expect({ ...read.settings, questions: exam.questions }).toEqual(exam);

    const test = parseXml(strFromU8(unzipSync(package_)['test.xml'] as Uint8Array));
    const part = descendants(test, 'qti-test-part')[0]!;
    const [alone, aided, ...more] = childrenNamed(part, 'qti-assessment-section');
    expect([alone?.attrs.title, aided?.attrs.title, more]).toEqual(['On your own', 'Section 2', []]);
    expect(descendants(alone!, 'qti-time-limits')[0]?.attrs['max-time']).toBe('1200');
    expect(descendants(alone!, 'qti-assessment-item-ref').map((r) => r.attrs.identifier)).toEqual([
      'item-1',
      'item-4',
      'item-5',
    ]);
    expect(descendants(aided!, 'qti-time-limits')).toEqual([]);
    expect(descendants(aided!, 'qti-selection')[0]?.attrs.select).toBe('1');
    expect(descendants(aided!, 'qti-assessment-item-ref').map((r) => r.attrs.identifier)).toEqual([
      'item-6',
      'item-7',
      'item-2',
      'item-3',
    ]);
  });

  it('writes a package of plain QTI: a manifest, one test and one item per question with the standard interactions', () => {
    const files = unzipSync(exportQti(sampleExam()));
    expect(Object.keys(files).sort()).toEqual(
      ['imsmanifest.xml', ...Array.from({ length: 7 }, (_, i) => `items/item-${i + 1}.xml`), 'test.xml'].sort(),
    );
    const item = (n: number) => parseXml(strFromU8(files[`items/item-${n}.xml`] as Uint8Array));
    expect(descendants(item(1), 'qti-choice-interaction')[0]?.attrs['max-choices']).toBe('1');
    expect(descendants(item(1), 'qti-correct-response')).toHaveLength(1);
    expect(descendants(item(2), 'qti-mapping')).toHaveLength(1);
    expect(descendants(item(4), 'qti-text-entry-interaction')).toHaveLength(1);
    expect(descendants(item(4), 'qti-map-entry').map((e) => e.attrs['map-key'])).toEqual(['3.14', 'pi']);
    expect(descendants(item(5), 'qti-upload-interaction')).toHaveLength(1);
    expect(descendants(item(6), 'qti-extended-text-interaction')[0]?.attrs['data-exam-language']).toBe('python');
    const test = parseXml(strFromU8(files['test.xml'] as Uint8Array));
    expect(descendants(test, 'qti-selection')[0]?.attrs.select).toBe('1');
    expect(descendants(test, 'qti-time-limits')[0]?.attrs['max-time']).toBe('2700');
  });

  it('reads the standard parts alone when a package has no platform extension', () => {
    const files = unzipSync(exportQti(sampleExam()));
    delete files['imsmanifest.xml'];
    const read = importQti(zipSync(files));
    expect(read.settings).toBeNull();
    const [mcq, many, , sa, upload, coding] = read.questions;
    expect(mcq).toMatchObject({ type: 'mcq', title: 'Pick the join', points: 2.5, correctAnswer: 'a < b & c' });
    expect(mcq?.options).toEqual(['INNER', 'LEFT  OUTER', 'a < b & c']);
    expect(many).toMatchObject({ multipleAnswers: true, correctAnswers: ['x', 'z'], scoring: 'partial', points: 3 });
    expect(sa).toMatchObject({ type: 'short-answer', acceptedAnswers: ['3.14', 'pi'], points: 4 });
    expect(sa?.matching.caseSensitive).toBe(true);
    expect(upload).toMatchObject({ type: 'file-upload', content: 'PDF only', points: 5 });
    expect(coding).toMatchObject({ type: 'coding', language: 'python', starterCode: 'def add(a, b):\n    pass\n' });
  });
});

describe('QTI 3.0 import of packages and items written from the specification', () => {
  it('reads a package: choice, true/false, multiple response and essay items, and says why the rest is left out', () => {
    const read = importQti(zipFolder('qti/sample-package'));
    expect(read.title).toBe('Sample Package Test');
    expect(read.questions.map((q) => [q.title, q.type])).toEqual([
      ['Capital city', 'mcq'],
      ['True or false: the Moon', 'mcq'],
      ['Programming languages', 'mcq'],
      ['Letter to a friend', 'short-answer'],
    ]);
    const [first, tf, choice, essay] = read.questions;
    expect(first).toMatchObject({
      content: 'Which city is the capital of Australia?',
      options: ['Sydney', 'Canberra', 'Melbourne', 'Perth'],
      correctAnswer: 'Canberra',
      multipleAnswers: false,
    });
    expect(tf).toMatchObject({ options: ['True', 'False'], correctAnswer: 'True' });
    expect(choice).toMatchObject({
      multipleAnswers: true,
      correctAnswers: ['Rust', 'Java, with generics.', 'Haskell and its type classes'],
    });
    expect(choice?.content).toContain('Which of these languages are **statically** typed?');
    expect(essay).toMatchObject({ acceptedAnswers: [] });
    expect(essay?.content).toContain('Write Alex a reply.');
    expect(read.notImported).toEqual([
      expect.objectContaining({ ref: 'missingword1', reason: expect.stringContaining('"paris"') }),
      expect.objectContaining({ ref: 'media1', reason: expect.stringContaining('img, video') }),
    ]);
  });

  it('reads loose items and lists the interactions it cannot import', () => {
    const zip = zipSync({
      'essay.xml': fixture('qti/loose-items/essay.xml'),
      'match.xml': fixture('qti/loose-items/match.xml'),
      'multiple.xml': fixture('qti/loose-items/multiple.xml'),
      'upload.xml': fixture('qti/loose-items/upload.xml'),
    });
    const read = importQti(zip);
    expect(read.questions.map((q) => [q.title, q.type])).toEqual([
      ['Write a short essay', 'short-answer'],
      ['Choice with several answers', 'mcq'],
      ['Upload a lab report', 'file-upload'],
    ]);
    expect(read.questions[1]).toMatchObject({ correctAnswers: ['Nitrogen', 'Oxygen'], scoring: 'all-or-nothing' });
    expect(read.notImported).toEqual([
      {
        ref: 'match1',
        title: 'Match the authors',
        reason:
          'qti-match-interaction is not a question type of this platform (multiple choice, short answer, file upload or coding)',
      },
    ]);
  });

  it('reads one item file on its own and refuses what is not XML', () => {
    expect(importQti(fixture('qti/sample-package/items/capital.xml')).questions).toHaveLength(1);
    const read = importQti(new TextEncoder().encode('not xml <'));
    expect(read.questions).toEqual([]);
    expect(read.notImported[0]?.reason).toMatch(/Not well-formed XML/);
  });
});
