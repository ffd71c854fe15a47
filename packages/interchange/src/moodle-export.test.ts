import { describe, expect, it } from 'vitest';
import { parseFormula } from '@exam/domain/formula';
import { PassageSchema } from '@exam/domain/passages';
import { type Question, QuestionSchema } from '@exam/domain/question';
import { DATASET_ITEMS, exportMoodleXml } from './moodle-export.ts';
import { fromMoodleFormula, toMoodleFormula } from './moodle-formula.ts';
import { importMoodleXml } from './moodle-xml.ts';
import { child, childrenNamed, descendants, parseXml, textOf } from './xml.ts';

const q = (fields: Record<string, unknown>) => QuestionSchema.parse(fields);
const feedback = { general: 'About **this**.', correct: 'Well done.', partial: 'Nearly.', incorrect: 'Not <quite>.' };
const passages = [
  PassageSchema.parse({
    id: 'lever',
    title: 'Levers',
    content: 'A lever trades force for distance.\n\n| a | b |\n|---|---|\n| 1 | 2 |',
  }),
];

/** One question of every type Moodle XML can hold without loss, with the fields each type has. */
function lossless(): Question[] {
  return [
    q({
      id: 'm1',
      type: 'mcq',
      title: 'Class',
      content: 'Which is a *first-class* lever?',
      topic: 'Physics/Levers',
      points: 2.5,
      options: ['Seesaw', 'Wheelbarrow', 'a < b & "c"'],
      correctAnswer: 'Seesaw',
      optionFeedback: ['Yes', 'No: second class', ''],
      feedback,
      passageId: 'lever',
    }),
    q({
      id: 'm2',
      type: 'mcq',
      title: 'Many',
      topic: 'Physics/Levers',
      options: ['x', 'y', 'z', 'w'],
      multipleAnswers: true,
      correctAnswers: ['x', 'z'],
      scoring: 'partial',
      points: 3,
      feedback,
      passageId: 'lever',
    }),
    q({
      id: 'm3',
      type: 'mcq',
      title: 'All',
      topic: 'Physics/Levers',
      options: ['x', 'y', 'z'],
      multipleAnswers: true,
      correctAnswers: ['x', 'y', 'z'],
      scoring: 'all-or-nothing',
    }),
    q({
      id: 't1',
      type: 'true-false',
      title: 'Fulcrum',
      topic: 'Physics/Levers',
      content: 'A fulcrum is a pivot.',
      correctAnswer: 'true',
      optionFeedback: ['Right', 'It is'],
      feedback: { ...feedback, correct: '', partial: '', incorrect: '' },
    }),
    q({
      id: 's1',
      type: 'short-answer',
      title: 'Symbol',
      topic: 'Chemistry',
      acceptedAnswers: ['Na', 'Na*'],
      matching: { caseSensitive: true, numeric: null },
      feedback: { ...feedback, partial: '' },
    }),
    q({
      id: 'e1',
      type: 'essay',
      title: 'Essay',
      topic: 'Chemistry',
      points: 10,
      essay: { minWords: 50, maxWords: 300, formatted: true },
      feedback: { ...feedback, correct: '', partial: '', incorrect: '' },
    }),
    q({ id: 'e2', type: 'essay', title: 'Plain essay', topic: 'Chemistry' }),
    q({ id: 'f1', type: 'file-upload', title: 'Report', topic: 'Chemistry', points: 5 }),
    q({
      id: 'o1',
      type: 'ordering',
      title: 'Order',
      topic: 'Chemistry',
      items: ['H', 'He', 'Li', 'Be'],
      scoring: 'partial',
      points: 3,
      feedback,
    }),
    q({
      id: 'o2',
      type: 'ordering',
      title: 'Order strictly',
      topic: 'Chemistry',
      items: ['one', 'two'],
      scoring: 'all-or-nothing',
    }),
    q({
      id: 'x1',
      type: 'matching',
      title: 'Pairs',
      topic: 'Chemistry',
      content: 'Match **them**.',
      pairs: [
        { prompt: 'Iron', answer: 'Fe' },
        { prompt: 'Lead', answer: 'Pb' },
        { prompt: 'Tin', answer: 'Sn' },
      ],
      distractors: ['Au'],
      scoring: 'partial',
      points: 3,
      feedback,
    }),
    q({
      id: 'b1',
      type: 'fill-blanks',
      title: 'Gaps',
      topic: 'Chemistry',
      content: 'Fill in the gaps.',
      gapText: 'Water is [[1]], it boils at [[2]] °C and it is a [[3]} {x} ~ # [[3]].'.replace(
        '[[3]} {x} ~ # ',
        '{x} ~ # ',
      ),
      blanks: [
        { kind: 'text', accepted: ['H2O', 'h/2"o}'] },
        { kind: 'numeric', accepted: ['100', '212'], tolerance: 0.5, weight: 2 },
        { kind: 'choice', accepted: ['liquid'], options: ['gas', 'liquid', 'solid'] },
      ],
      scoring: 'partial',
      points: 4,
      feedback: { ...feedback, correct: '', partial: '', incorrect: '' },
    }),
    q({
      id: 'n1',
      type: 'numeric',
      title: 'Distance',
      topic: 'Units',
      acceptedAnswers: ['1500'],
      matching: { caseSensitive: false, numeric: { tolerance: 1, mode: 'absolute' } },
      units: {
        units: [
          { symbol: 'm', multiplier: 1 },
          { symbol: 'km', multiplier: 0.001 },
        ],
        required: true,
      },
      feedback: { ...feedback, partial: '' },
    }),
    q({
      id: 'n2',
      type: 'numeric',
      title: 'Bare',
      topic: 'Units',
      acceptedAnswers: ['3.14', '-2e3'],
      units: { units: [{ symbol: 's', multiplier: 1 }], required: false },
    }),
    q({
      id: 'c1',
      type: 'calculated',
      title: 'Area',
      topic: 'Units',
      content: 'Base {b} cm, height {h} cm: the area?',
      points: 2,
      calculated: {
        formula: 'b * h / 2 + ln(e) - pi * 0',
        variables: [
          { name: 'b', min: 2, max: 20, decimals: 0 },
          { name: 'h', min: 1.5, max: 9.5, decimals: 1 },
        ],
        answerDecimals: 2,
      },
      matching: { caseSensitive: false, numeric: { tolerance: 0.01, mode: 'relative' } },
      units: { units: [{ symbol: 'cm²', multiplier: 1 }], required: false },
      feedback: { ...feedback, partial: '', incorrect: '' },
    }),
    q({
      id: 'c2',
      type: 'calculated',
      title: 'Hypotenuse',
      topic: 'Units',
      content: '{a} and {b}?',
      calculated: {
        formula: 'sqrt(a^2 + b^2) + round(a, 1)',
        variables: [
          { name: 'a', min: 1, max: 9, decimals: 0 },
          { name: 'b', min: 1, max: 9, decimals: 0 },
        ],
      },
      matching: { caseSensitive: false, numeric: { tolerance: 0.05, mode: 'absolute' } },
    }),
  ];
}

const withoutId = ({ id: _id, passageId: _passage, ...rest }: Question) => rest;

describe('Moodle XML export', () => {
  it('round-trips every type: text, options, keys, points, tolerance, scoring, units, formula, feedback, passage', () => {
    const questions = lossless();
    const exported = exportMoodleXml({ questions, passages });
    expect(exported.losses).toEqual([]);
    const read = importMoodleXml(exported.xml);
    expect(read.notImported).toEqual([]);
    expect(read.warnings).toEqual([]);
    expect(read.passages.map(({ id: _id, ...p }) => p)).toEqual([{ title: 'Levers', content: passages[0]!.content }]);
    expect(read.questions.map((x) => x.passageId)).toEqual(
      questions.map((x) => (x.passageId ? read.passages[0]!.id : null)),
    );
    const byTree = (x: Question) =>
      x.calculated
        ? {
            ...x,
            calculated: {
              ...x.calculated,
              formula: parseFormula(
                x.calculated.formula,
                x.calculated.variables.map((v) => v.name),
              ),
            },
          }
        : x;
    expect(read.questions.map(withoutId).map((x) => byTree(x as Question))).toEqual(
      questions.map(withoutId).map((x) => byTree(x as Question)),
    );
    // A formula without a power keeps the author's text.
    expect(read.questions.find((x) => x.title === 'Area')?.calculated?.formula).toBe('b * h / 2 + ln(e) - pi * 0');
  });

  it('writes what Moodle reads: categories, fractions, ordering positions, units, datasets within their ranges', () => {
    const root = parseXml(exportMoodleXml({ questions: lossless(), passages }).xml);
    const questions = childrenNamed(root, 'question');
    expect(questions.filter((x) => x.attrs.type === 'category').map((x) => textOf(x).trim())).toEqual([
      '$course$/top/Physics/Levers',
      '$course$/top/Physics/Levers',
      '$course$/top/Chemistry',
      '$course$/top/Units',
    ]);
    const ofType = (type: string) => questions.filter((x) => x.attrs.type === type);
    expect(ofType('description')).toHaveLength(1);
    const many = ofType('multichoice')[1]!;
    expect(childrenNamed(many, 'answer').map((a) => a.attrs.fraction)).toEqual(['50', '-50', '50', '-50']);
    expect(ofType('multichoiceset')).toHaveLength(1);
    expect(childrenNamed(ofType('ordering')[0]!, 'answer').map((a) => a.attrs.fraction)).toEqual(['1', '2', '3', '4']);
    expect(textOf(child(ofType('ordering')[0]!, 'gradingtype'))).toBe('RELATIVE_NEXT_EXCLUDE_LAST');
    expect(textOf(child(ofType('cloze')[0]!, 'questiontext'))).toContain(
      'Water is {1:SHORTANSWER:=H2O~=h\\/2\\"o\\}}, it boils at {2:NUMERICAL:=100:0.5~=212:0.5} °C',
    );
    const area = ofType('calculated')[0]!;
    expect(textOf(child(child(area, 'answer')!, 'text'))).toBe('{b} * {h} / 2 + log(exp(1)) - pi() * 0');
    const h = descendants(area, 'dataset_definition')[1]!;
    const values = descendants(h, 'value').map((v) => Number(textOf(v)));
    expect(values).toHaveLength(DATASET_ITEMS);
    for (const v of values) {
      expect(v).toBeGreaterThanOrEqual(1.5);
      expect(v).toBeLessThanOrEqual(9.5);
    }
    expect(textOf(child(ofType('numerical')[0]!, 'unitgradingtype'))).toBe('1');
    expect(textOf(child(ofType('numerical')[0]!, 'unitpenalty'))).toBe('1');
  });

  it('names each thing Moodle cannot hold, in the result and at the top of the file', () => {
    const questions = [
      q({
        id: 'k1',
        type: 'coding',
        title: 'Sum',
        language: 'python',
        starterCode: 'def add(a, b):\n    pass\n',
        tests: [{ id: 't', name: 'adds', stdin: '', args: [], expected: '3', points: 2, visible: true }],
      }),
      q({
        id: 'k2',
        type: 'matching',
        title: 'Strict pairs',
        pairs: [
          { prompt: 'a', answer: 'b' },
          { prompt: 'c', answer: 'd' },
        ],
      }),
      q({
        id: 'k3',
        type: 'fill-blanks',
        title: 'Strict gaps',
        gapText: '[[1]]',
        blanks: [{ accepted: ['x'], weight: 1.5 }],
        points: 3,
      }),
      q({
        id: 'k4',
        type: 'short-answer',
        title: 'As a number',
        acceptedAnswers: ['2'],
        matching: { caseSensitive: false, numeric: { tolerance: 0.1, mode: 'relative' } },
      }),
      q({ id: 'k5', type: 'essay', title: 'Marked', feedback: { ...feedback, partial: '' }, rubricId: 'r1' }),
    ];
    const exported = exportMoodleXml({ questions, passages: [] });
    expect(exported.losses.map((l) => [l.title, l.reason])).toEqual([
      [
        'Sum',
        'A coding question is exported as an essay with monospaced text: its language (python), 1 tests and their points, run limits and workspace are not carried over',
      ],
      ['Strict pairs', 'All-or-nothing scoring: Moodle gives credit for each pair (partial credit)'],
      ['Strict gaps', 'All-or-nothing scoring: Moodle gives credit for each gap (partial credit)'],
      ['Strict gaps', 'Its gap weights are not whole numbers; they are written 2 times larger (the same shares)'],
      ['As a number', 'A short answer compared as a number is exported as a numerical question'],
      ['As a number', 'Its relative tolerance is written as the same absolute tolerance for each accepted value'],
      ['Marked', "Its feedback for correct, incorrect answers: Moodle's essay question has no place for it"],
      ['Marked', 'Its rubric is not carried over: Moodle XML has no rubrics'],
    ]);
    expect(exported.xml).toMatch(
      /^<\?xml[^>]*>\n<!-- Not carried over to Moodle XML:\n {2}#1 k1 \(Sum\): A coding question/,
    );
    const read = importMoodleXml(exported.xml);
    expect(read.questions.map((x) => x.type)).toEqual(['essay', 'matching', 'fill-blanks', 'numeric', 'essay']);
    expect(read.questions[0]?.essay.formatted).toBe(false);
    expect(read.questions[2]).toMatchObject({ scoring: 'partial', blanks: [{ weight: 3 }], points: 3 });
    expect(read.questions[3]).toMatchObject({ matching: { numeric: { tolerance: 0.2, mode: 'absolute' } } });
  });
});

describe('Moodle formulas', () => {
  it('maps names both ways and writes a power as pow()', () => {
    expect(toMoodleFormula('2 * x^2 + ln(x) + e + pi + 1e-3', ['x'])).toBe(
      '(((((2 * pow({x}, 2)) + log({x})) + exp(1)) + pi()) + 0.001)',
    );
    expect(fromMoodleFormula('{=pow({x}, 2) ** 3 + deg2rad(90) + rad2deg(pi())}', ['x'])).toBe(
      '((x)^(2)) ^ 3 + ((90) * pi / 180) + ((pi) * 180 / pi)',
    );
  });

  it('names a Moodle function or a variable the platform cannot read', () => {
    expect(() => fromMoodleFormula('fmod({x}, 2)', ['x'])).toThrow("Moodle's function fmod()");
    expect(() => fromMoodleFormula('{y} + 1', ['x'])).toThrow('{y}');
    expect(() => fromMoodleFormula('{x} +', ['x'])).toThrow('cannot be read here');
  });
});
