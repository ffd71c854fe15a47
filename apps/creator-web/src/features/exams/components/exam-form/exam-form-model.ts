import { DEFAULT_CPU_SECONDS, DEFAULT_MEMORY_MB } from '@exam/domain/coding';
import { AiSettingsInputSchema, type CourseMaterial } from '@exam/domain/exam-ai';
import { CreateExamSchema, type CreateExam, type Exam } from '@exam/domain/exam';
import { DEFAULT_MCQ_OPTIONS, type CodingLanguage, type QuestionType } from '@exam/domain/question';
import type { z } from 'zod';
import { i18n } from '../../../../i18n/index.ts';
import { kindDefaults } from '../../../../lib/question-form.ts';

/** What the form holds: the POST body as typed (defaults not yet applied by the schema). */
export type ExamFormInput = z.input<typeof CreateExamSchema>;
export type QuestionInput = NonNullable<ExamFormInput['questions']>[number];
export type TestCaseInput = NonNullable<QuestionInput['tests']>[number];

/**
 * The write-only API key (the server never sends a stored key back): keep the stored one, replace it with
 * what was typed, or remove it.
 */
export type ApiKeyMode = 'keep' | 'replace' | 'remove';

export function newQuestionId(): string {
  return crypto.randomUUID();
}

export function newQuestion(type: QuestionType, language: CodingLanguage = 'python'): QuestionInput {
  return {
    id: newQuestionId(),
    type,
    title: '',
    content: '',
    topic: '',
    points: 1,
    options: type === 'mcq' ? [...DEFAULT_MCQ_OPTIONS] : [],
    correctAnswer: type === 'mcq' ? '' : undefined,
    multipleAnswers: false,
    correctAnswers: [],
    scoring: 'all-or-nothing',
    rubricId: null,
    poolId: null,
    sectionId: null,
    plantedError: null,
    language: type === 'coding' ? language : undefined,
    // The coding fields' defaults, so their inputs start from the values the schema would apply.
    starterCode: '',
    tests: [],
    limits: { cpuSeconds: DEFAULT_CPU_SECONDS, memoryMb: DEFAULT_MEMORY_MB },
    setupScript: '',
    referenceSolution: '',
    workspaceFile: null,
    // The further types' fields (question-kinds.ts), and what this type starts with.
    ...kindDefaults(type),
  };
}

export function emptyExamForm(): ExamFormInput {
  // Parsing {} applies every default the service would apply, so the form starts from the same values.
  const defaults = CreateExamSchema.parse({});
  return { ...defaults, aiSettings: { ...defaults.aiSettings, apiKey: undefined } };
}

export function examToForm(exam: Exam): ExamFormInput {
  const { hasApiKey: _hasKey, apiKeyLast4: _last4, courseMaterials, ...ai } = exam.aiSettings;
  return {
    title: exam.title,
    description: exam.description,
    header: exam.header,
    rules: exam.rules,
    timerEnabled: exam.timerEnabled,
    timerMinutes: exam.timerMinutes,
    fullScreenEnabled: exam.fullScreenEnabled,
    questionDisplay: exam.questionDisplay,
    questions: exam.questions.map((q) => ({
      ...q,
      correctAnswer: q.correctAnswer ?? (q.type === 'mcq' ? '' : undefined),
    })),
    rubrics: exam.rubrics,
    releasePolicy: exam.releasePolicy,
    showAnswerKeys: exam.showAnswerKeys,
    unansweredPolicy: exam.unansweredPolicy,
    codingWorkspace: exam.codingWorkspace,
    shuffleQuestions: exam.shuffleQuestions,
    shuffleOptions: exam.shuffleOptions,
    pools: exam.pools,
    sections: exam.sections,
    opensAt: exam.opensAt,
    closesAt: exam.closesAt,
    attemptsAllowed: exam.attemptsAllowed,
    keepGrade: exam.keepGrade,
    access: exam.access,
    similarityThreshold: exam.similarityThreshold,
    passages: exam.passages,
    practice: exam.practice,
    review: exam.review,
    retentionDays: exam.retentionDays,
    aiSettings: {
      ...AiSettingsInputSchema.parse({}),
      ...ai,
      apiKey: undefined,
      courseMaterialIds: courseMaterials.map((m) => m.id),
    },
    isDraft: exam.isDraft,
  };
}

/**
 * The request body from validated values: blank question titles get the default
 * 'Question N', materials come from the upload list, and the key follows the creator's choice.
 */
export function toRequestBody(values: CreateExam, materials: CourseMaterial[], apiKeyMode: ApiKeyMode): CreateExam {
  const typedKey = values.aiSettings.apiKey?.trim();
  let apiKey: string | null | undefined;
  if (apiKeyMode === 'remove') apiKey = null;
  else if (apiKeyMode === 'replace' && typedKey) apiKey = typedKey;
  else apiKey = undefined;
  const { apiKey: _typed, ...ai } = values.aiSettings;
  const sections = values.sections ?? [];
  // A question naming no section (or a removed one) shows, and is sat, in the first: saved so, it stays there
  // when the sections are reordered later.
  const sectionOf = (id: string | null | undefined) =>
    sections.length === 0 ? null : sections.some((s) => s.id === id) ? id! : sections[0]!.id;
  const passageIds = new Set((values.passages ?? []).map((p) => p.id));
  return {
    ...values,
    title: values.title.trim(),
    questions: values.questions.map((q, i) => ({
      ...q,
      sectionId: sectionOf(q.sectionId),
      // A passage removed from the exam is no longer shown beside the question.
      passageId: q.passageId !== null && passageIds.has(q.passageId) ? q.passageId : null,
      optionFeedback: optionFeedbackOf(q),
      // A numeric question's blank rows are rows not filled in, not right values.
      acceptedAnswers: q.type === 'numeric' ? q.acceptedAnswers.filter((a) => a.trim() !== '') : q.acceptedAnswers,
      title: q.title.trim() || i18n.t('editor:defaultQuestionTitle', { n: i + 1 }),
      // Arguments are typed one per line; blank lines are not arguments.
      tests: q.tests.map((t) => ({ ...t, args: t.args.filter((a) => a.trim() !== '') })),
    })),
    aiSettings: { ...ai, ...(apiKey === undefined ? {} : { apiKey }), courseMaterialIds: materials.map((m) => m.id) },
  };
}

/**
 * Per-option feedback is kept by the option's position: only the question's options have any (an MCQ's, a
 * true/false question's two), and none at all when every one is blank.
 */
function optionFeedbackOf(q: CreateExam['questions'][number]): string[] {
  const count = q.type === 'mcq' ? q.options.length : q.type === 'true-false' ? 2 : 0;
  const kept = q.optionFeedback.slice(0, count);
  return kept.some((f) => f.trim() !== '') ? kept : [];
}
