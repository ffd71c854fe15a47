import { describe, expect, it } from 'vitest';
import { importMoodleXml } from './moodle-xml.ts';
import { fixtureText } from './testing.ts';

describe('Moodle XML import', () => {
  it('reads a nested-categories export: true/false and essay questions, categories as topics', () => {
    const read = importMoodleXml(fixtureText('moodle/nested-categories.xml'));
    expect(read.notImported).toEqual([]);
    expect(read.questions.map((q) => [q.title, q.type, q.topic])).toEqual([
      ['Geography Question', 'true-false', 'Geography'],
      ['Europe Essay', 'essay', 'Geography/Europe'],
      ['Europe Question', 'true-false', 'Geography/Europe'],
      ['Rivers Question', 'true-false', 'Geography/Europe/Rivers'],
      ['Asia Question', 'true-false', 'Geography/Asia'],
    ]);
    expect(read.questions[0]).toMatchObject({
      content: 'The Earth has seven continents.',
      correctAnswer: 'true',
      points: 1,
    });
    expect(read.questions[1]).toMatchObject({ content: 'Describe the climate of the country you live in.' });
    expect(read.questions[2]).toMatchObject({ correctAnswer: 'false' });
  });

  it('maps fractions to keys and points, matching to pairs and an embedded answer to a gap', () => {
    const read = importMoodleXml(fixtureText('moodle/every-kind.xml'));
    const [gas, halogens, symbol, avogadro, report, pairs, fillIn] = read.questions;
    expect(gas).toMatchObject({
      topic: 'Chemistry',
      content: 'Which of these is a **noble** gas?',
      options: ['Neon', 'Nitrogen', 'Oxygen'],
      correctAnswer: 'Neon',
      optionFeedback: ['Yes', '', ''],
      points: 2,
    });
    expect(halogens).toMatchObject({
      multipleAnswers: true,
      correctAnswers: ['Fluorine', 'Chlorine'],
      scoring: 'partial',
      points: 3,
    });
    expect(symbol).toMatchObject({ acceptedAnswers: ['Na'], matching: { caseSensitive: true, numeric: null } });
    expect(avogadro).toMatchObject({
      type: 'numeric',
      acceptedAnswers: ['6.022'],
      matching: { numeric: { tolerance: 0.01, mode: 'absolute' } },
      points: 1.5,
    });
    expect(report).toMatchObject({ type: 'file-upload', points: 10 });
    expect(pairs).toMatchObject({
      type: 'matching',
      pairs: [
        { prompt: 'Iron', answer: 'Fe' },
        { prompt: 'Lead', answer: 'Pb' },
      ],
      scoring: 'partial',
    });
    expect(fillIn).toMatchObject({ type: 'fill-blanks', gapText: 'Water is [[1]].', blanks: [{ accepted: ['H2O'] }] });
    expect(read.notImported).toEqual([]);
    // Halogens: a wrong tick takes 100% off in Moodle, one right option's share here.
    expect(read.warnings.map((w) => w.title)).toEqual(['Halogens']);
  });

  it('reads matching, embedded answers, calculated, essay limits and units, and a description as a passage', () => {
    const read = importMoodleXml(fixtureText('moodle/question-kinds.xml'));
    const [capitals, cloze, triangle, essay, distance] = read.questions;
    expect(capitals).toMatchObject({
      type: 'matching',
      points: 3,
      pairs: [
        { prompt: 'France', answer: 'Paris' },
        { prompt: 'Japan', answer: 'Tokyo' },
        { prompt: 'Kenya', answer: 'Nairobi' },
      ],
      distractors: ['Lima'],
      scoring: 'partial',
    });
    expect(cloze).toMatchObject({
      type: 'fill-blanks',
      points: 4,
      scoring: 'partial',
      gapText: 'The chemical symbol of gold is [[1]], it melts at [[2]] °C, and it is a [[3]].',
      blanks: [
        { kind: 'text', accepted: ['Au'], weight: 1 },
        { kind: 'numeric', accepted: ['1064'], tolerance: 5, weight: 2 },
        { kind: 'choice', accepted: ['metal'], options: ['gas', 'metal', 'liquid'], weight: 1 },
      ],
    });
    expect(triangle).toMatchObject({
      type: 'calculated',
      points: 2,
      content: 'A triangle has base {b} cm and height {h} cm. What is its area?',
      calculated: {
        formula: 'b * h / 2',
        variables: [
          { name: 'b', min: 2, max: 20, decimals: 0 },
          { name: 'h', min: 1, max: 10, decimals: 0 },
        ],
        answerDecimals: 2,
        values: null,
      },
      matching: { numeric: { tolerance: 0.01, mode: 'relative' } },
      units: { units: [{ symbol: 'cm²', multiplier: 1 }], required: false },
    });
    expect(essay).toMatchObject({ type: 'essay', essay: { minWords: 50, maxWords: 200, formatted: true } });
    expect(distance).toMatchObject({
      type: 'numeric',
      acceptedAnswers: ['1500'],
      matching: { numeric: { tolerance: 1, mode: 'absolute' } },
      units: {
        units: [
          { symbol: 'm', multiplier: 1 },
          { symbol: 'km', multiplier: 0.001 },
          { symbol: 'cm', multiplier: 100 },
        ],
        required: true,
      },
    });
    expect(read.passages).toEqual([
      {
        id: 'p1',
        title: 'Reading passage',
        content: 'Read the following before the next questions: a lever multiplies force at the cost of distance.',
      },
    ]);
    expect(read.notImported).toEqual([
      {
        ref: '#8 Picture question',
        title: 'Picture question',
        reason: 'Its picture (pictures/owl.png) is a separate file the XML only names, so it cannot be carried over',
      },
    ]);
    expect(read.warnings.map((w) => [w.title, w.reason])).toEqual([
      ['Embedded answers', 'Its feedback for the gaps’ answers is not carried over'],
      ['Short essay', 'Its information for graders is not carried over'],
      ['Distance with units', 'A missing or wrong unit took 10% off in Moodle; here it earns no points'],
    ]);
  });

  it('reads ordering, all-or-nothing choice, calculated simple, feedback, an inline picture and a passage run', () => {
    const read = importMoodleXml(fixtureText('moodle/more-kinds.xml'));
    const [orbit, planets, phases, dot, giants, hypotenuse, solar, price, log] = read.questions;
    expect(read.passages).toEqual([
      {
        id: 'p1',
        title: 'The Moon',
        content: 'The Moon is about **384,400 km** from the Earth and takes about 27.3 days to go round it.',
      },
    ]);
    // The description's run ends at the next category entry.
    expect(read.questions.map((q) => q.passageId)).toEqual(['p1', 'p1', 'p1', null, null, null, null, null, null]);
    expect(orbit).toMatchObject({
      type: 'true-false',
      correctAnswer: 'true',
      optionFeedback: ['Yes.', 'Read the passage again.'],
      feedback: { general: 'A sidereal month is 27.3 days.' },
    });
    expect(planets).toMatchObject({
      type: 'ordering',
      items: ['Mercury', 'Venus', 'Earth', 'Mars'],
      scoring: 'partial',
      points: 3,
      feedback: { correct: 'All in order.', partial: 'Some pairs are in order.', incorrect: 'Start with Mercury.' },
    });
    expect(phases).toMatchObject({ items: ['New moon', 'First quarter', 'Full moon'], scoring: 'partial' });
    expect(dot?.content).toBe(
      'What colour is the dot in the picture?\n\n![dot.png](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP438AAAAQBAYDFKhhdAAAAAElFTkSuQmCC)',
    );
    expect(giants).toMatchObject({
      multipleAnswers: true,
      correctAnswers: ['Jupiter', 'Saturn'],
      scoring: 'all-or-nothing',
      optionFeedback: ['', '', 'Mars is rocky.'],
    });
    expect(hypotenuse).toMatchObject({
      type: 'calculated',
      calculated: { formula: 'sqrt(((a)^(2)) + b^2) * ln(e)', answerDecimals: 1 },
      matching: { numeric: { tolerance: 0.05, mode: 'absolute' } },
    });
    expect(solar).toMatchObject({
      content: 'Answer in the gaps.',
      gapText: 'The largest planet is [[1]], its symbol is [[2]], and it has about [[3]] moons.',
      blanks: [
        { kind: 'choice', accepted: ['Jupiter'], options: ['Jupiter', 'Saturn', 'Neptune'], weight: 2 },
        { kind: 'text', accepted: ['J}u'] },
        { kind: 'numeric', accepted: ['95'], tolerance: 5 },
      ],
      matching: { caseSensitive: true },
      feedback: { general: 'Jupiter has the most mass.' },
    });
    expect(price).toMatchObject({
      type: 'numeric',
      units: { required: true },
      feedback: { correct: 'Right.', incorrect: '100 cents make a euro.' },
    });
    expect(log).toMatchObject({ type: 'essay', essay: { formatted: true } });
    expect(read.notImported.map((n) => [n.title, n.reason])).toEqual([
      ['Angle', "The formula uses Moodle's function atan2(), which formulas here do not have"],
      ['Pick moons', 'Gap 1 takes several choices (MULTIRESPONSE); a gap here takes one'],
    ]);
    expect(read.warnings.map((w) => w.title)).toEqual([
      'Moon phases',
      'Hypotenuse',
      'Solar system',
      'Solar system',
      'Price',
      'Observation log',
      'Observation log',
    ]);
  });

  it('refuses a file that is not a Moodle quiz', () => {
    expect(() => importMoodleXml('<html></html>')).toThrow(/not quiz/);
    expect(() => importMoodleXml('<quiz>')).toThrow(/Not well-formed/);
  });
});
