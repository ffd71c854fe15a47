import { describe, expect, it } from 'vitest';
import { importGift, topicOf } from './gift.ts';
import { fixtureText } from './testing.ts';

describe('GIFT import', () => {
  it("reads Moodle's own GIFT fixture: every kind it holds, and why the rest is left out", () => {
    const read = importGift(fixtureText('gift/questions.gift.txt'));
    expect(read.questions.map((q) => [q.title, q.type])).toEqual([
      ['Q8', 'short-answer'],
      ['Q2', 'mcq'],
      ['colours', 'mcq'],
      ['Q5', 'short-answer'],
      ['Q1', 'mcq'],
      ['2-08 TSL', 'mcq'],
      ['2-08 TSL', 'mcq'],
    ]);
    const [essay, q2, colours, q5, q1, t1, t2] = read.questions;
    expect(essay).toMatchObject({ content: 'How are you?', acceptedAnswers: [] });
    expect(q2).toMatchObject({ options: ['yellow', 'red', 'blue'], correctAnswer: 'yellow', multipleAnswers: false });
    expect(colours).toMatchObject({
      options: ['yellow', 'red', 'off-beige', 'blue'],
      multipleAnswers: true,
      correctAnswers: ['yellow', 'off-beige'],
      scoring: 'partial',
    });
    expect(q5).toMatchObject({ acceptedAnswers: ['3'], matching: { numeric: { tolerance: 2, mode: 'absolute' } } });
    expect(q1).toMatchObject({ options: ['True', 'False'], correctAnswer: 'False' });
    expect(t1?.correctAnswer).toBe('True');
    expect(t2?.correctAnswer).toBe('True');
    expect(read.notImported).toEqual([
      expect.objectContaining({ title: 'Moodle activities', reason: expect.stringMatching(/matching/) }),
      expect.objectContaining({ title: 'Shortanswer', reason: expect.stringContaining('"Cat"') }),
    ]);
  });

  it('turns $CATEGORY into the topic and reads [html] text as Markdown', () => {
    const read = importGift(fixtureText('gift/questions_in_category.gift.txt'));
    expect(read.questions.map((q) => q.topic)).toEqual([
      'Default for New Features',
      'Default for New Features',
      'Default for New Features',
    ]);
    const [greeting, user, acronym] = read.questions;
    expect(greeting).toMatchObject({ options: ['English', 'French', 'German', 'Spanish'], correctAnswer: 'French' });
    expect(greeting?.content).toBe('Listen to this greeting:\n\nWhat language is being spoken?');
    expect(user).toMatchObject({ type: 'short-answer', acceptedAnswers: ['Moodler'] });
    expect(acronym?.content).toBe('Moodle is an acronym for *Modular Object-Oriented Dynamic Learning Environment*.');
    expect(read.notImported.map((n) => n.title)).toEqual(['Moodle activities']);
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
