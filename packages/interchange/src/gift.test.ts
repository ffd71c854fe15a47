import { describe, expect, it } from 'vitest';
import { importGift, topicOf } from './gift.ts';
import { fixtureText } from './testing.ts';

describe('GIFT import', () => {
  it('reads every kind of GIFT question it meets, and says why the rest is left out', () => {
    const read = importGift(fixtureText('gift/kinds.gift.txt'));
    expect(read.questions.map((q) => [q.title, q.type])).toEqual([
      ['Reflection', 'short-answer'],
      ['Planet', 'mcq'],
      ['Primes', 'mcq'],
      ['Dice', 'short-answer'],
      ['Boiling', 'mcq'],
      ['Sky', 'mcq'],
      ['Sky', 'mcq'],
    ]);
    const [essay, planet, primes, dice, boiling, t1, t2] = read.questions;
    expect(essay).toMatchObject({ content: 'What did you find hardest this term?', acceptedAnswers: [] });
    expect(planet).toMatchObject({
      options: ['Mercury', 'Venus', 'Mars'],
      correctAnswer: 'Mercury',
      multipleAnswers: false,
    });
    expect(primes).toMatchObject({
      options: ['seven', 'nine', 'eleven', 'fifteen'],
      multipleAnswers: true,
      correctAnswers: ['seven', 'eleven'],
      scoring: 'partial',
    });
    expect(dice).toMatchObject({ acceptedAnswers: ['4'], matching: { numeric: { tolerance: 1, mode: 'absolute' } } });
    expect(boiling).toMatchObject({ options: ['True', 'False'], correctAnswer: 'False' });
    expect(t1?.correctAnswer).toBe('True');
    expect(t2?.correctAnswer).toBe('True');
    expect(read.notImported).toEqual([
      expect.objectContaining({ title: 'Tools of the trade', reason: expect.stringMatching(/matching/) }),
      expect.objectContaining({ title: 'Fruit', reason: expect.stringContaining('"Plantain"') }),
    ]);
  });

  it('turns $CATEGORY into the topic and reads [html] text as Markdown', () => {
    const read = importGift(fixtureText('gift/category-and-html.gift.txt'));
    expect(read.questions.map((q) => q.topic)).toEqual([
      'Languages for Beginners',
      'Languages for Beginners',
      'Languages for Beginners',
    ]);
    const [listening, word, meaning] = read.questions;
    expect(listening).toMatchObject({ options: ['Czech', 'Polish', 'Slovak', 'Russian'], correctAnswer: 'Polish' });
    expect(listening?.content).toBe('Play the recording:\n\nWhich language do you hear?');
    expect(word).toMatchObject({ type: 'short-answer', acceptedAnswers: ['Gracias'] });
    expect(meaning?.content).toBe('In French, *bonjour* means good day.');
    expect(read.notImported.map((n) => n.title)).toEqual(['Pairs']);
  });

  it('reads descriptions, numeric answers, escapes and missing-word questions', () => {
    const read = importGift(fixtureText('gift/every-kind.gift.txt'));
    expect(read.notImported).toEqual([
      { ref: '#2 Intro', title: 'Intro', reason: 'A description (text without a question) is not a question' },
    ]);
    const [light, boiling, escapes, ohm, newton, essay] = read.questions;
    expect(read.questions.every((q) => q.topic === 'Physics/Units')).toBe(true);
    expect(light).toMatchObject({ acceptedAnswers: ['300000'], matching: { numeric: { tolerance: 1000 } } });
    expect(boiling).toMatchObject({ acceptedAnswers: ['100', '212'], matching: { numeric: { tolerance: 0 } } });
    expect(escapes).toMatchObject({
      content: 'Which is written 1:2 in ratio notation {not a block}?',
      options: ['one to two', 'two to one', 'one = two # maybe'],
      correctAnswer: 'one to two',
    });
    expect(ohm).toMatchObject({
      type: 'short-answer',
      title: "Ohm's law says V equals I times ____ in a circuit.",
      acceptedAnswers: ['R', 'resistance'],
    });
    expect(newton).toMatchObject({ content: "Newton's first law is about ____ .", correctAnswer: 'inertia' });
    expect(essay).toMatchObject({ type: 'short-answer', acceptedAnswers: [] });
  });

  it('keeps the path of a category below its context as the topic', () => {
    expect(topicOf('$course$/Iota/Kappa')).toBe('Iota/Kappa');
    expect(topicOf('top/Default for X')).toBe('Default for X');
  });
});
