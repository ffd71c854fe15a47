import { strFromU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { importQti } from './qti-import.ts';
import { exportQti } from './qti-export.ts';
import { type ExchangeExam } from './qti-shared.ts';
import { sampleExam } from './qti-sample.testing.ts';
import { fixture, zipFolder } from './testing.ts';
import { childrenNamed, parseXml, descendants } from './xml.ts';

describe('QTI 3.0 export and import', () => {
  it('round-trips an exam with every question type and setting', () => {
    const exam = sampleExam();
    const read = importQti(exportQti(exam));
    expect(read.notImported).toEqual([]);
    expect(read.warnings).toEqual([]);
    expect(read.title).toBe(exam.title);
    expect(read.questions).toEqual(exam.questions);
    expect(read.passages).toEqual(exam.passages);
    expect({ ...read.settings, questions: exam.questions, passages: read.passages }).toEqual(exam);
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
    expect({ ...read.settings, questions: exam.questions, passages: read.passages }).toEqual(exam);

    const test = parseXml(strFromU8(unzipSync(package_)['test.xml'] as Uint8Array));
    const part = descendants(test, 'qti-test-part')[0]!;
    const [alone, aided, ...more] = childrenNamed(part, 'qti-assessment-section');
    expect([alone?.attrs.title, aided?.attrs.title, more]).toEqual(['On your own', 'Section 2', []]);
    expect(descendants(alone!, 'qti-time-limits')[0]?.attrs['max-time']).toBe('1200');
    expect(descendants(alone!, 'qti-assessment-item-ref').map((r) => r.attrs.identifier)).toEqual([
      'item-1',
      'item-4',
      'item-5',
      ...exam.questions.slice(7).map((_q, i) => `item-${i + 8}`),
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
    const exam = sampleExam();
    const files = unzipSync(exportQti(exam));
    expect(Object.keys(files).sort()).toEqual(
      [
        'imsmanifest.xml',
        ...exam.questions.map((_q, i) => `items/item-${i + 1}.xml`),
        'stimuli/passage-1.xml',
        'stimuli/passage-2.xml',
        'exam-platform/extension.json',
        'test.xml',
      ].sort(),
    );
    const item = (n: number) => parseXml(strFromU8(files[`items/item-${n}.xml`] as Uint8Array));
    expect(descendants(item(1), 'qti-choice-interaction')[0]?.attrs['max-choices']).toBe('1');
    expect(descendants(item(1), 'qti-correct-response')).toHaveLength(1);
    expect(descendants(item(2), 'qti-mapping')).toHaveLength(1);
    expect(descendants(item(4), 'qti-text-entry-interaction')).toHaveLength(1);
    expect(descendants(item(5), 'qti-upload-interaction')).toHaveLength(1);
    expect(descendants(item(6), 'qti-extended-text-interaction')[0]?.attrs.class).toBe('exam-language-python');
    const test = parseXml(strFromU8(files['test.xml'] as Uint8Array));
    expect(descendants(test, 'qti-selection')[0]?.attrs.select).toBe('1');
    expect(descendants(test, 'qti-time-limits')[0]?.attrs['max-time']).toBe('2700');
  });

  it('reads the standard parts alone when a package has no platform extension', () => {
    const files = unzipSync(exportQti(sampleExam()));
    delete files['exam-platform/extension.json'];
    const read = importQti(zipSync(files));
    expect(read.settings).toBeNull();
    const byTitle = (title: string) => read.questions.find((q) => q.title === title);
    const [mcq, many, sa, upload, coding] = ['Pick the join', 'Pick many', 'Pi', 'Upload the diagram', 'Sum'].map(
      byTitle,
    );
    expect(mcq).toMatchObject({ type: 'mcq', title: 'Pick the join', points: 2.5, correctAnswer: 'a < b & c' });
    expect(mcq?.options).toEqual(['INNER', 'LEFT  OUTER', 'a < b & c']);
    expect(many).toMatchObject({ multipleAnswers: true, correctAnswers: ['x', 'z'], scoring: 'partial', points: 3 });
    // A short answer compared as a number is a float entry: read as the numeric question it scores like.
    expect(sa).toMatchObject({ type: 'numeric', acceptedAnswers: ['3.14'], points: 4 });
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
      ['True or false: the Moon', 'true-false'],
      ['Programming languages', 'mcq'],
      ['Letter to a friend', 'essay'],
    ]);
    const [first, tf, choice, essay] = read.questions;
    expect(first).toMatchObject({
      content: 'Which city is the capital of Australia?',
      options: ['Sydney', 'Canberra', 'Melbourne', 'Perth'],
      correctAnswer: 'Canberra',
      multipleAnswers: false,
    });
    expect(tf).toMatchObject({ correctAnswer: 'true' });
    expect(choice).toMatchObject({
      multipleAnswers: true,
      correctAnswers: ['Rust', 'Java, with generics.', 'Haskell and its type classes'],
    });
    expect(choice?.content).toContain('Which of these languages are **statically** typed?');
    expect(essay).toMatchObject({ essay: { minWords: null, maxWords: null, formatted: false } });
    expect(essay?.content).toContain('Write Alex a reply.');
    expect(read.notImported).toEqual([
      expect.objectContaining({ ref: 'missingword1', reason: expect.stringContaining('"paris"') }),
      expect.objectContaining({ ref: 'media1', reason: expect.stringContaining('img, video') }),
    ]);
  });

  it('reads loose items, and says what a question loses on the way', () => {
    const zip = zipSync({
      'essay.xml': fixture('qti/loose-items/essay.xml'),
      'match.xml': fixture('qti/loose-items/match.xml'),
      'multiple.xml': fixture('qti/loose-items/multiple.xml'),
      'upload.xml': fixture('qti/loose-items/upload.xml'),
    });
    const read = importQti(zip);
    expect(read.questions.map((q) => [q.title, q.type])).toEqual([
      ['Write a short essay', 'essay'],
      ['Match the authors', 'matching'],
      ['Choice with several answers', 'mcq'],
      ['Upload a lab report', 'file-upload'],
    ]);
    expect(read.questions[1]).toMatchObject({
      pairs: [
        { prompt: 'Pride and Prejudice', answer: 'English' },
        { prompt: 'Don Quixote', answer: 'Spanish' },
        { prompt: 'One Hundred Years of Solitude', answer: 'Spanish' },
        { prompt: 'Les Misérables', answer: 'French' },
      ],
      distractors: [],
      scoring: 'partial',
    });
    expect(read.questions[2]).toMatchObject({ correctAnswers: ['Nitrogen', 'Oxygen'], scoring: 'all-or-nothing' });
    expect(read.notImported).toEqual([]);
    expect(read.warnings).toEqual([
      { ref: 'match1', title: 'Match the authors', reason: expect.stringContaining('worth different points') },
    ]);
  });

  it('reads one item file on its own and refuses what is not XML', () => {
    expect(importQti(fixture('qti/sample-package/items/capital.xml')).questions).toHaveLength(1);
    const read = importQti(new TextEncoder().encode('not xml <'));
    expect(read.questions).toEqual([]);
    expect(read.notImported[0]?.reason).toMatch(/Not well-formed XML/);
  });
});
