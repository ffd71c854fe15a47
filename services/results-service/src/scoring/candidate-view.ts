import type { AiProvider } from '@exam/domain/ai-catalogue';
import { hasUsableAiKey } from '@exam/domain/exam-ai';
import { DEFAULT_FOLLOW_UP } from '@exam/domain/follow-up';
import { toPublicExam, type PublicExam } from '@exam/domain/public-exam';
import type { InternalExam } from '@exam/domain/internal';
import type { ExamSnapshot } from './snapshot.ts';

/** The assistant of an exam exam-service no longer has: off, as llm-gateway would refuse it too. */
const NO_ASSISTANT = {
  enabled: false,
  provider: 'openai',
  model: '',
  startMessage: '',
  copyLLMResponse: true,
  uploadDocuments: false,
} as const;

/**
 * The candidate's view of an attempt's exam: the questions, title, timer and workspace come from the
 * snapshot taken at start, so they are exactly what is graded however the creator edits the exam since.
 * Whether the exam is live and the assistant's settings come from the live exam, because llm-gateway reads
 * those live too, and the candidate must see the exam as offline as soon as its creator switches it off.
 * `live` is undefined when exam-service no longer has the exam (deleted): the view then says it is not live.
 */
export function candidateView(
  attempt: { examId: string; examSnapshot: ExamSnapshot; practice?: boolean },
  live: InternalExam | undefined,
  serverKeys: Partial<Record<AiProvider, boolean>>,
): PublicExam {
  const snapshot = attempt.examSnapshot;
  const ai = live?.aiSettings;
  return toPublicExam(
    {
      id: attempt.examId,
      title: snapshot.title,
      description: snapshot.description ?? live?.description ?? '',
      header: snapshot.header ?? live?.header ?? '',
      rules: snapshot.rules ?? live?.rules ?? '',
      timerEnabled: snapshot.timerEnabled,
      timerMinutes: snapshot.timerMinutes,
      fullScreenEnabled: snapshot.fullScreenEnabled ?? live?.fullScreenEnabled ?? false,
      questionDisplay: snapshot.questionDisplay ?? live?.questionDisplay ?? 'all',
      isLive: live !== undefined && !live.isDraft && live.isLive,
      questions: snapshot.questions,
      // The attempt's sections are those it started with, as its questions are.
      sections: snapshot.sections ?? [],
      // The passages and the practice flag are the attempt's own too (snapshots kept before them have none).
      passages: snapshot.passages ?? [],
      practice: snapshot.practice ?? false,
      codingWorkspace: snapshot.codingWorkspace,
      // The follow-up is the attempt's own, kept at start (its submission opens it whatever the creator edits since).
      aiSettings: { ...(ai ?? NO_ASSISTANT), followUp: snapshot.followUp ?? { ...DEFAULT_FOLLOW_UP, enabled: false } },
      // The window and access rules are the live exam's (the server enforces them live too); the snapshot's
      // questions are already the candidate's own draw from any pool.
      opensAt: live?.opensAt ?? null,
      closesAt: live?.closesAt ?? null,
      access: live?.access ?? 'link',
      attemptsAllowed: live?.attemptsAllowed ?? 1,
      pools: [],
      // Practice is the attempt's, fixed at start like its questions.
      practice: attempt.practice ?? false,
    },
    {
      materialNames: ai?.courseMaterials.map((m) => m.name) ?? [],
      hasUsableKey:
        ai !== undefined &&
        hasUsableAiKey(ai, { hasCreatorKey: ai.hasApiKey || ai.encryptedApiKey !== null, serverKeys }),
    },
  );
}
