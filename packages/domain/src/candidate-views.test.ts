import { describe, expect, it } from 'vitest';
import { AttemptStateSchema, SubmitResponseSchema } from './attempt.ts';
import {
  readAttemptState,
  readCandidateLive,
  readPublicExam,
  readPublicExamSummary,
  readSubmitResponse,
  ViewShapeError,
} from './candidate-views.ts';
import { CandidateLiveSchema } from './live.ts';
import { PublicExamSchema, PublicExamSummarySchema } from './public-exam.ts';

/**
 * An exam view with its required fields only: every field a schema defaults is left out, at every level, so zod
 * fills in each default and the zod-free reader must fill in the same. A default added to the schemas later is left
 * out here too (the fixture does not know it) and fails the first test until the reader has it.
 */
const required = () => ({
  id: 'exam-1',
  title: 'Chemistry',
  description: 'Read each question.',
  header: '',
  rules: '',
  timerEnabled: false,
  timerMinutes: 0,
  fullScreenEnabled: false,
  isLive: true,
  questions: [
    { id: 'q1', type: 'mcq', title: '', content: 'Which is a noble gas?', topic: '', options: ['Neon', 'Iron'] },
    { id: 'q2', type: 'short-answer', title: 'Symbol', content: 'The symbol of gold?', topic: 'elements', options: [] },
  ],
  codingWorkspace: {},
  aiSettings: {
    enabled: false,
    provider: 'openai',
    model: 'gpt-4o-mini',
    startMessage: '',
    copyLLMResponse: true,
    uploadDocuments: false,
    materialNames: [],
    missing: [],
  },
  opensAt: null,
  closesAt: null,
  access: 'link',
  attemptsAllowed: 1,
  questionCount: 2,
});

/** The same exam with every defaulted field set to something other than its default. */
const everyField = () => {
  const exam = required();
  return {
    ...exam,
    questionDisplay: 'one',
    questions: exam.questions.map((q, i) => ({ ...q, multipleAnswers: i === 0, points: 3 })),
    codingWorkspace: {
      enabled: true,
      saveFilesInResults: false,
      workspaceType: 'r-studio',
      allowPackageRegistries: true,
    },
    sections: [{ id: 's1', title: 'Part A', assistant: false, timeLimitMinutes: 10, questionCount: 2 }],
    passages: [{ id: 'p1', title: 'Passage', content: 'Text' }],
    practice: true,
  };
};

describe('candidate views read without zod as the schemas parse', () => {
  it('fills in every default of the exam, its questions and its workspace as PublicExamSchema does', () => {
    const parsed = PublicExamSchema.parse(required());
    expect(parsed.codingWorkspace.saveFilesInResults).toBe(true);
    expect(readPublicExam(required())).toEqual(parsed);
  });

  it('keeps every value the server sent over the defaults', () => {
    const exam = everyField();
    expect(readPublicExam(exam)).toEqual(PublicExamSchema.parse(exam));
    expect(readPublicExam(exam).questions[0]?.multipleAnswers).toBe(true);
  });

  it('reads the summary before an attempt without questions or passages, as PublicExamSummarySchema does', () => {
    for (const exam of [required(), everyField()]) {
      const summary = readPublicExamSummary(exam);
      expect(summary).toEqual(PublicExamSummarySchema.parse(exam));
      expect(summary).not.toHaveProperty('questions');
      expect(summary).not.toHaveProperty('passages');
    }
  });

  it('defaults a submission’s follow-up flag as SubmitResponseSchema does', () => {
    const response = { resultId: 'r1', answered: 1, total: 2 };
    expect(readSubmitResponse(response)).toEqual(SubmitResponseSchema.parse(response));
    expect(readSubmitResponse({ ...response, followUp: true }).followUp).toBe(true);
  });

  it('reads the attempt’s state and the live poll as sent', () => {
    const state = {
      attemptId: 'a1',
      examId: 'exam-1',
      name: 'Ada',
      studentId: 's1',
      startedAt: '2026-11-30T01:00:00.000Z',
      deadline: null,
      submittedAt: null,
      resultId: null,
      serverNow: '2026-11-30T01:05:00.000Z',
      answers: { '0': { answer: 'Neon', seq: 2, operations: 4 } },
      uploadMaxBytes: 1024,
    };
    expect(readAttemptState(state)).toEqual(AttemptStateSchema.parse(state));
    const live = { serverNow: state.serverNow, deadline: null, submittedAt: null, endedAt: null, announcements: [] };
    expect(readCandidateLive(live)).toEqual(CandidateLiveSchema.parse(live));
  });

  it('refuses a body that is not the object it expects', () => {
    expect(() => readPublicExam(null)).toThrow(ViewShapeError);
    expect(() => readPublicExam([])).toThrow(ViewShapeError);
    expect(() => readPublicExam({ ...required(), questions: 'none' })).toThrow(ViewShapeError);
    expect(() => readPublicExamSummary({ ...required(), codingWorkspace: null })).toThrow(ViewShapeError);
    expect(() => readAttemptState({ attemptId: 'a1' })).toThrow(ViewShapeError);
    expect(() => readCandidateLive({ serverNow: 'now' })).toThrow(ViewShapeError);
  });
});
