import { describe, expect, it } from 'vitest';
import { importMoodleXml } from './moodle-xml.ts';
import { fixtureText } from './testing.ts';

describe('Moodle XML import', () => {
  it('reads a nested-categories export: true/false and essay questions, categories as topics', () => {
    const read = importMoodleXml(fixtureText('moodle/nested-categories.xml'));
    expect(read.notImported).toEqual([]);
    expect(read.questions.map((q) => [q.title, q.type, q.topic])).toEqual([
      ['Geography Question', 'mcq', 'Geography'],
      ['Europe Essay', 'short-answer', 'Geography/Europe'],
      ['Europe Question', 'mcq', 'Geography/Europe'],
      ['Rivers Question', 'mcq', 'Geography/Europe/Rivers'],
      ['Asia Question', 'mcq', 'Geography/Asia'],
    ]);
    expect(read.questions[0]).toMatchObject({
      content: 'The Earth has seven continents.',
      options: ['True', 'False'],
      correctAnswer: 'True',
      points: 1,
    });
    expect(read.questions[1]).toMatchObject({
      content: 'Describe the climate of the country you live in.',
      acceptedAnswers: [],
    });
    expect(read.questions[2]).toMatchObject({ options: ['True', 'False'], correctAnswer: 'False' });
  });

  it('maps fractions to keys and points, and lists matching and cloze as not importable', () => {
    const read = importMoodleXml(fixtureText('moodle/every-kind.xml'));
    const [gas, halogens, symbol, avogadro, report] = read.questions;
    expect(gas).toMatchObject({
      topic: 'Chemistry',
      content: 'Which of these is a **noble** gas?',
      options: ['Neon', 'Nitrogen', 'Oxygen'],
      correctAnswer: 'Neon',
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
      acceptedAnswers: ['6.022'],
      matching: { numeric: { tolerance: 0.01, mode: 'absolute' } },
      points: 1.5,
    });
    expect(report).toMatchObject({ type: 'file-upload', points: 10 });
    expect(read.notImported).toEqual([
      { ref: '#7 Pairs', title: 'Pairs', reason: 'A matching question: this platform has no matching questions' },
      {
        ref: '#8 Fill in',
        title: 'Fill in',
        reason: 'An embedded-answers (Cloze) question: a question here has one answer',
      },
    ]);
  });

  it('refuses a file that is not a Moodle quiz', () => {
    expect(() => importMoodleXml('<html></html>')).toThrow(/not quiz/);
    expect(() => importMoodleXml('<quiz>')).toThrow(/Not well-formed/);
  });
});
