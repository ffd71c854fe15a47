import { describe, expect, it } from 'vitest';
import { importGift, topicOf } from './gift.ts';
import { fixtureText } from './testing.ts';

describe('GIFT import', () => {
  it('reads every kind of GIFT question it meets, and says why the rest is left out', () => {
    const read = importGift(fixtureText('gift/kinds.gift.txt'));
    expect(read.questions.map((q) => [q.title, q.type])).toEqual([
      ['Reflection', 'essay'],
      ['Tools of the trade', 'matching'],
      ['Planet', 'mcq'],
      ['Primes', 'mcq'],
      ['Dice', 'numeric'],
      ['Boiling', 'true-false'],
      ['Sky', 'true-false'],
      ['Sky', 'true-false'],
    ]);
    const [essay, tools, planet, primes, dice, boiling, t1, t2] = read.questions;
    expect(essay).toMatchObject({ content: 'What did you find hardest this term?' });
    expect(tools).toMatchObject({
      content: 'Pair each **tool** with what it does.',
      pairs: [
        { prompt: 'Keeps track of every change to the source.', answer: 'Version control' },
        { prompt: 'Turns source code into a program the machine runs.', answer: 'Compiler' },
        { prompt: 'Stops a program at a line so you can look around.', answer: 'Debugger' },
        { prompt: 'Checks the style of code without running it.', answer: 'Linter' },
      ],
      distractors: ['Profiler'],
      scoring: 'partial',
    });
    expect(planet).toMatchObject({
      options: ['Mercury', 'Venus', 'Mars'],
      correctAnswer: 'Mercury',
      multipleAnswers: false,
      optionFeedback: ['right; it orbits in 88 days', 'no, Venus is *second*', 'no, Mars is fourth'],
    });
    expect(primes).toMatchObject({
      options: ['seven', 'nine', 'eleven', 'fifteen'],
      multipleAnswers: true,
      correctAnswers: ['seven', 'eleven'],
      scoring: 'partial',
    });
    expect(dice).toMatchObject({ acceptedAnswers: ['4'], matching: { numeric: { tolerance: 1, mode: 'absolute' } } });
    expect(boiling).toMatchObject({
      correctAnswer: 'false',
      // The first feedback is for the wrong answer (true), the second for the right one.
      optionFeedback: ['It boils at 100 degrees.', 'Right, it is false.'],
      feedback: { general: 'At higher altitudes it boils at a lower temperature.' },
    });
    expect(t1?.correctAnswer).toBe('true');
    expect(t2?.correctAnswer).toBe('true');
    expect(read.notImported).toEqual([
      expect.objectContaining({ title: 'Fruit', reason: expect.stringContaining('"Plantain"') }),
    ]);
  });

  it('turns $CATEGORY into the topic and reads [html] text as Markdown', () => {
    const read = importGift(fixtureText('gift/category-and-html.gift.txt'));
    expect(read.questions.map((q) => q.topic)).toEqual(Array(4).fill('Languages for Beginners'));
    const [pairs, listening, word, meaning] = read.questions;
    expect(pairs).toMatchObject({ type: 'matching', distractors: ['Dutch'] });
    expect(listening).toMatchObject({ options: ['Czech', 'Polish', 'Slovak', 'Russian'], correctAnswer: 'Polish' });
    // The link to the recording stays in the text.
    expect(listening?.content).toBe(
      '[Play the recording:](https://example.org/media/dzien-dobry.mp3)\n\nWhich language do you hear?',
    );
    expect(word).toMatchObject({ type: 'short-answer', acceptedAnswers: ['Gracias'] });
    expect(meaning?.content).toBe('In French, *bonjour* means good day.');
    expect(read.notImported).toEqual([]);
  });

  it('reads descriptions, numeric answers, escapes and missing-word questions', () => {
    const read = importGift(fixtureText('gift/every-kind.gift.txt'));
    expect(read.notImported).toEqual([
      { ref: '#2 Intro', title: 'Intro', reason: 'A description (text without a question) is not a question' },
    ]);
    const [light, boiling, escapes, ohm, newton, essay] = read.questions;
    expect(read.questions.every((q) => q.topic === 'Physics/Units')).toBe(true);
    expect(light).toMatchObject({
      type: 'numeric',
      acceptedAnswers: ['300000'],
      matching: { numeric: { tolerance: 1000 } },
    });
    expect(boiling).toMatchObject({ type: 'numeric', acceptedAnswers: ['100', '212'], matching: { numeric: null } });
    expect(escapes).toMatchObject({
      content: 'Which is written 1:2 in ratio notation {not a block}?',
      options: ['one to two', 'two to one', 'one = two # maybe'],
      correctAnswer: 'one to two',
    });
    expect(ohm).toMatchObject({
      type: 'fill-blanks',
      title: "Ohm's law says V equals I times ____ in a circuit.",
      gapText: "Ohm's law says V equals I times [[1]] in a circuit.",
      blanks: [{ kind: 'text', accepted: ['R', 'resistance'] }],
    });
    expect(newton).toMatchObject({
      gapText: "Newton's first law is about[[1]].",
      blanks: [{ kind: 'choice', options: ['gravity', 'inertia', 'friction'], accepted: ['inertia'] }],
    });
    expect(essay).toMatchObject({ type: 'essay' });
  });

  it('reads answer blocks in the text as gaps, ranges, matching, feedback, and keeps web links but lists file links', () => {
    const read = importGift(fixtureText('gift/gaps-and-links.gift.txt'));
    const [capital, continent, height, range, rivers, anthem] = read.questions;
    expect(capital).toMatchObject({
      type: 'fill-blanks',
      content: '',
      gapText: 'Paris is the capital of [[1]] .',
      blanks: [{ kind: 'text', accepted: ['France', 'République française'] }],
    });
    expect(continent).toMatchObject({
      gapText: 'Kenya lies in [[1]] and borders the Indian Ocean.',
      blanks: [{ kind: 'choice', accepted: ['Africa'], options: ['Asia', 'Africa', 'Europe'] }],
    });
    expect(height).toMatchObject({ blanks: [{ kind: 'numeric', accepted: ['4800'], tolerance: 50 }] });
    expect(range).toMatchObject({
      type: 'numeric',
      acceptedAnswers: ['1994.5'],
      matching: { numeric: { tolerance: 4.5, mode: 'absolute' } },
      feedback: { general: 'The 1990s run from 1990 to 1999.' },
    });
    expect(rivers).toMatchObject({ type: 'matching', distractors: ['Baltic Sea'] });
    expect(rivers?.pairs.map((p) => p.answer)).toEqual(['Black Sea', 'North Sea', 'Mediterranean']);
    expect(anthem).toMatchObject({
      content: "[audio: anthem.mp3](https://example.org/media/anthem.mp3) Which country's anthem is this?",
      optionFeedback: ['Yes, the Marseillaise.', 'No.', ''],
      feedback: { general: 'It was written in 1792.' },
    });
    expect(read.notImported).toEqual([
      {
        ref: '#8 Dialect',
        title: 'Dialect',
        reason: 'It links recordings/dialect.mp3, a file a GIFT file does not carry (a link to a web address is kept)',
      },
    ]);
  });

  it('keeps the path of a category below its context as the topic', () => {
    expect(topicOf('$course$/Iota/Kappa')).toBe('Iota/Kappa');
    expect(topicOf('top/Default for X')).toBe('Default for X');
  });
});
