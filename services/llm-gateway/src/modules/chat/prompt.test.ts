import { plantedInstruction } from '@exam/domain/planted-errors';
import { QuestionSchema } from '@exam/domain/question';
import { describe, expect, it } from 'vitest';
import { makeExam } from '../../testing/exams.ts';
import {
  buildSystemPrompt,
  clarityOf,
  DEFAULT_TEMPERATURE,
  normaliseConversation,
  PromptText,
  temperatureOf,
} from './prompt.ts';

const questions = [
  QuestionSchema.parse({
    id: 'a',
    type: 'mcq',
    title: 'Pick the mean',
    content: 'Of 1, 2, 3',
    options: ['1', '2', '3'],
    correctAnswer: '2',
  }),
  QuestionSchema.parse({
    id: 'b',
    type: 'short-answer',
    title: 'Name the test',
    acceptedAnswers: ['CANARY-ACCEPTED-7731'],
  }),
  QuestionSchema.parse({
    id: 'c',
    type: 'coding',
    title: 'Write fizzbuzz',
    language: 'python',
    correctAnswer: 'CANARY-CORRECT-5519',
  }),
];

function prompt(
  ai: NonNullable<Parameters<typeof makeExam>[0]>['ai'] = {},
  extra: { materialTexts?: { name: string; text: string }[]; questionIndex?: number | null } = {},
) {
  const exam = makeExam({ questions, ai, materialTexts: extra.materialTexts ?? [] });
  return buildSystemPrompt({
    questions: exam.questions,
    materialTexts: exam.materialTexts,
    aiSettings: exam.aiSettings,
    questionIndex: extra.questionIndex ?? null,
  });
}

describe('system prompt', () => {
  it('asks for a planted error, last, only when the turn is planted', () => {
    const exam = makeExam({ questions, materialTexts: [{ name: 'notes', text: 'Means and medians.' }] });
    const input = { questions: exam.questions, materialTexts: exam.materialTexts, aiSettings: exam.aiSettings };
    const planted = buildSystemPrompt({ ...input, questionIndex: 0, planted: { questionIndex: 0, error: '3' } });
    expect(planted.endsWith(`\n\n${plantedInstruction(1, '3')}`)).toBe(true);
    expect(buildSystemPrompt({ ...input, questionIndex: 0 })).toBe(planted.slice(0, planted.lastIndexOf('\n\n')));
  });

  it('starts with the helpful-assistant line and lists every question with its options', () => {
    const text = prompt();
    expect(text.startsWith(PromptText.base)).toBe(true);
    expect(text).toContain('Q1: Pick the mean (mcq)');
    expect(text).toContain('Options: A) 1; B) 2; C) 3');
    expect(text).toContain('Q3: Write fizzbuzz (coding, python)');
  });

  it('never contains correctAnswer or acceptedAnswers', () => {
    const text = prompt({ courseAssistanceEnabled: true, customPrompt: 'Be kind.' });
    expect(text).not.toContain('CANARY-ACCEPTED-7731');
    expect(text).not.toContain('CANARY-CORRECT-5519');
    expect(text.toLowerCase()).not.toContain('correct answer');
  });

  it('carries the creator guardrails and the stop-solutions rule when stopSolutions is on', () => {
    const text = prompt({ customPrompt: 'Only answer in French.', stopSolutions: true });
    expect(text).toContain('Only answer in French.');
    expect(text).toContain(PromptText.stopSolutions);
    expect(prompt({ stopSolutions: false })).not.toContain(PromptText.stopSolutions);
  });

  it('adds the no-code-execution rule unless processCode is on', () => {
    expect(prompt({ processCode: false })).toContain(PromptText.noCodeExecution);
    expect(prompt({ processCode: true })).not.toContain(PromptText.noCodeExecution);
  });

  it('adds the course-assistance clause with the clarity wording of its level only when enabled', () => {
    expect(prompt({ courseAssistanceEnabled: true, courseAssistanceLevel: 8 })).toContain('level 8 of 10');
    expect(prompt({ courseAssistanceEnabled: true, courseAssistanceLevel: 8 })).toContain('very clear');
    expect(prompt({ courseAssistanceEnabled: true, courseAssistanceLevel: 5 })).toContain('moderate');
    expect(prompt({ courseAssistanceEnabled: true, courseAssistanceLevel: 2 })).toContain('ambiguous');
    expect(prompt({ courseAssistanceEnabled: false })).not.toContain('Course assistance');
  });

  it('joins the course materials and cuts them to contextLength characters', () => {
    const text = prompt(
      { contextLength: 100 },
      {
        materialTexts: [
          { name: 'week1.pdf', text: 'A'.repeat(40) },
          { name: 'week2.txt', text: 'B'.repeat(40) },
        ],
      },
    );
    const excerpt = text.split('Course materials (excerpt):\n')[1] ?? '';
    expect(excerpt).toHaveLength(100);
    expect(excerpt.startsWith('[week1.pdf]\nAAAA')).toBe(true);
    expect(excerpt).toContain('[week2.txt]');
    expect(prompt()).not.toContain('Course materials');
  });

  it('names the question the candidate is looking at', () => {
    expect(prompt({}, { questionIndex: 1 })).toContain('currently looking at Q2');
    expect(prompt({}, { questionIndex: 9 })).not.toContain('currently looking at');
  });
});

describe('temperature and clarity', () => {
  it('uses 0.7 without course assistance and max(0.1, 1 - level/10) with it', () => {
    expect(temperatureOf({ courseAssistanceEnabled: false, courseAssistanceLevel: 9 })).toBe(DEFAULT_TEMPERATURE);
    expect(temperatureOf({ courseAssistanceEnabled: true, courseAssistanceLevel: 3 })).toBe(0.7);
    expect(temperatureOf({ courseAssistanceEnabled: true, courseAssistanceLevel: 7 })).toBe(0.3);
    expect(temperatureOf({ courseAssistanceEnabled: true, courseAssistanceLevel: 10 })).toBe(0.1);
    expect(temperatureOf({ courseAssistanceEnabled: true, courseAssistanceLevel: 0 })).toBe(1);
  });

  it('says very clear above 0.7, moderate above 0.4 and ambiguous otherwise (boundaries excluded)', () => {
    expect([10, 8, 7, 5, 4, 0].map(clarityOf)).toEqual([
      'very clear',
      'very clear',
      'moderate',
      'moderate',
      'ambiguous',
      'ambiguous',
    ]);
  });
});

describe('conversation', () => {
  it('drops a leading assistant turn and merges consecutive turns of one role', () => {
    const result = normaliseConversation([
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'first' },
      { role: 'user', content: 'second' },
      { role: 'assistant', content: 'reply' },
      { role: 'user', content: 'third' },
    ]);
    expect(result).toEqual([
      { role: 'user', content: 'first\n\nsecond' },
      { role: 'assistant', content: 'reply' },
      { role: 'user', content: 'third' },
    ]);
  });
});
