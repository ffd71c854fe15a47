import { z } from 'zod';
import type { AiProvider } from './ai-catalogue.ts';
import { type AccessMode, AccessModeSchema, type Pool, questionsPerCandidate } from './cohort.ts';
import { PublicAiSettingsSchema, missingAiConfiguration } from './exam-ai.ts';
import {
  type CodingWorkspace,
  CodingWorkspaceSchema,
  type QuestionDisplay,
  QuestionDisplaySchema,
} from './exam-settings.ts';
import { PublicQuestionSchema, type Question, toPublicQuestion } from './question.ts';
import { type Passage, PublicPassageSchema, passagesFor } from './passages.ts';
import { type PublicSection, PublicSectionSchema, type Section, sectionIndexOf } from './sections.ts';
export { PreviewMessages } from './candidate-messages.ts';

/** What a candidate's browser receives of an exam, and the preview (docs/product.md#sitting-an-exam). */

/** GET /api/public/exams/{id}: only what a candidate may see. */
export const PublicExamSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  header: z.string(),
  rules: z.string(),
  timerEnabled: z.boolean(),
  timerMinutes: z.number(),
  fullScreenEnabled: z.boolean(),
  /** Absent from a view cached before the option existed: read as 'all'. */
  questionDisplay: QuestionDisplaySchema.default('all'),
  isLive: z.boolean(),
  questions: z.array(PublicQuestionSchema),
  codingWorkspace: CodingWorkspaceSchema,
  aiSettings: PublicAiSettingsSchema,
  opensAt: z.string().nullable(),
  closesAt: z.string().nullable(),
  access: AccessModeSchema,
  attemptsAllowed: z.number().int(),
  /** Questions each candidate gets (pools draw fewer than they hold). */
  questionCount: z.number().int(),
  /** The exam's sections in order (sections.ts); empty for an undivided exam. */
  sections: z.array(PublicSectionSchema).default([]),
  /** The shared passages the candidate's questions refer to (passages.ts). */
  passages: z.array(PublicPassageSchema).default([]),
  /** A practice exam: the candidate may check each answer as they go (practice.ts). */
  practice: z.boolean().default(false),
});
export type PublicExam = z.infer<typeof PublicExamSchema>;

/**
 * GET /api/public/exams/{id}: what the start pages need before an attempt exists. The questions reach a
 * browser only with an attempt (its snapshot) or an owner's preview token (docs/product.md#sitting-an-exam).
 */
export const PublicExamSummarySchema = PublicExamSchema.omit({ questions: true, passages: true });
export type PublicExamSummary = z.infer<typeof PublicExamSummarySchema>;

/** POST /api/exams/{id}/preview-token: a short-lived, read-only token for one exam's preview. */
export const PreviewTokenResponseSchema = z.object({ token: z.string(), expiresAt: z.string() });
export type PreviewTokenResponse = z.infer<typeof PreviewTokenResponseSchema>;

/** What the candidate's view of an exam is built from: a stored exam, or an attempt's snapshot of one. */
export type PublicExamSource = {
  id: string;
  title: string;
  description: string;
  header: string;
  rules: string;
  timerEnabled: boolean;
  timerMinutes: number;
  fullScreenEnabled: boolean;
  questionDisplay: QuestionDisplay;
  isLive: boolean;
  questions: Question[];
  codingWorkspace: CodingWorkspace;
  opensAt: Date | string | null;
  closesAt: Date | string | null;
  access: AccessMode;
  attemptsAllowed: number;
  pools: Array<Pick<Pool, 'id' | 'draw'>>;
  /** Absent from exams and snapshots kept before sections existed. */
  sections?: Section[];
  /** Absent from exams and snapshots kept before passages existed. */
  passages?: Passage[];
  practice?: boolean;
  aiSettings: {
    enabled: boolean;
    provider: AiProvider;
    model: string;
    startMessage: string;
    copyLLMResponse: boolean;
    uploadDocuments: boolean;
    plantedErrors?: { enabled: boolean };
    /** Follow-up questions after submit (follow-up.ts); absent from settings kept before they existed. */
    followUp?: { enabled: boolean; questions: number; secondsPerQuestion: number };
  };
};

const instant = (value: Date | string | null): string | null =>
  value === null ? null : typeof value === 'string' ? value : value.toISOString();

/**
 * The candidate's view of an exam (docs/product.md#sitting-an-exam), field by field so nothing else leaks:
 * questions without their answer keys, the assistant without its key, prompt or material text.
 * Every service that shows a candidate an exam builds it here, so they all strip the same way.
 */
export function toPublicExam(
  exam: PublicExamSource,
  assistant: { materialNames: string[]; hasUsableKey: boolean },
): PublicExam {
  const ai = exam.aiSettings;
  return {
    id: exam.id,
    title: exam.title,
    description: exam.description,
    header: exam.header,
    rules: exam.rules,
    timerEnabled: exam.timerEnabled,
    timerMinutes: exam.timerMinutes,
    fullScreenEnabled: exam.fullScreenEnabled,
    questionDisplay: exam.questionDisplay,
    isLive: exam.isLive,
    questions: exam.questions.map(toPublicQuestion),
    codingWorkspace: exam.codingWorkspace,
    opensAt: instant(exam.opensAt),
    closesAt: instant(exam.closesAt),
    access: exam.access,
    attemptsAllowed: exam.attemptsAllowed,
    questionCount: questionsPerCandidate(exam.questions, exam.pools),
    sections: publicSections(exam),
    passages: passagesFor(exam.passages ?? [], exam.questions).map((p) => ({
      id: p.id,
      title: p.title,
      content: p.content,
    })),
    practice: exam.practice ?? false,
    aiSettings: {
      enabled: ai.enabled,
      provider: ai.provider,
      model: ai.model,
      startMessage: ai.startMessage,
      copyLLMResponse: ai.copyLLMResponse,
      uploadDocuments: ai.uploadDocuments,
      plantedErrors: ai.enabled && (ai.plantedErrors?.enabled ?? false),
      // The briefing tells the candidate how many follow-up questions come after submit, and how long each has.
      followUp:
        ai.enabled && ai.followUp?.enabled
          ? { questions: ai.followUp.questions, secondsPerQuestion: ai.followUp.secondsPerQuestion }
          : null,
      materialNames: assistant.materialNames,
      missing: missingAiConfiguration({ provider: ai.provider, model: ai.model, hasKey: assistant.hasUsableKey }),
    },
  };
}

/** Each section as the candidate sees it, with how many questions they get in it (a pool counts its draw). */
function publicSections(exam: Pick<PublicExamSource, 'sections' | 'questions' | 'pools'>): PublicSection[] {
  const sections = exam.sections ?? [];
  return sections.map((s, i) => {
    const inSection = exam.questions.filter((q) => sectionIndexOf(q, sections) === i);
    const pools = exam.pools.filter((p) => inSection.some((q) => q.poolId === p.id));
    return {
      id: s.id,
      title: s.title,
      assistant: s.assistant,
      timeLimitMinutes: s.timeLimitMinutes,
      questionCount: questionsPerCandidate(inSection, pools),
    };
  });
}

/** The candidate-facing messages of the public exam view (shown on the candidate's start page). */
export const PublicExamMessages = {
  notFound: 'Exam not found. Please check the URL or contact your test provider.',
  offline: 'This exam is currently offline. Please contact your test provider.',
} as const;
