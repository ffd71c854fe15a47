import { QuestionSchema } from '@exam/domain/question';
import { type CourseMaterial } from '@exam/domain/exam-ai';
import { type Exam } from '@exam/domain/exam';
import { capabilitiesOf, type ExamCapability, type ExamGrant } from '@exam/domain/roles';
import type { ExamRow } from './exams.repository.ts';

/**
 * The creator's view of a stored exam. Built field by field so the key (plain or encrypted) and the
 * material ids can never slip into a response, even before the response schema strips unknown fields.
 */
export function toExamView(row: ExamRow, materials: CourseMaterial[]): Exam {
  const { courseMaterialIds: _ids, ...ai } = row.aiSettings;
  return {
    id: row.id,
    ownerId: row.ownerId,
    title: row.title,
    description: row.description,
    header: row.header,
    rules: row.rules,
    timerEnabled: row.timerEnabled,
    timerMinutes: row.timerMinutes,
    fullScreenEnabled: row.fullScreenEnabled,
    questionDisplay: row.questionDisplay,
    // Parsed so questions stored before a field existed read with its default (e.g. 1 point each).
    questions: row.questions.map((q) => QuestionSchema.parse(q)),
    rubrics: row.rubrics,
    releasePolicy: row.releasePolicy,
    showAnswerKeys: row.showAnswerKeys,
    unansweredPolicy: row.unansweredPolicy,
    codingWorkspace: row.codingWorkspace,
    opensAt: row.opensAt?.toISOString() ?? null,
    closesAt: row.closesAt?.toISOString() ?? null,
    attemptsAllowed: row.attemptsAllowed,
    keepGrade: row.keepGrade,
    shuffleQuestions: row.shuffleQuestions,
    shuffleOptions: row.shuffleOptions,
    access: row.access,
    hasAccessCode: row.accessCodeHash !== null,
    pools: row.pools,
    sections: row.sections,
    passages: row.passages,
    practice: row.practice,
    review: row.review,
    retentionDays: row.retentionDays,
    similarityThreshold: row.similarityThreshold,
    aiSettings: {
      ...ai,
      hasApiKey: row.encryptedApiKey !== null,
      apiKeyLast4: row.apiKeyLast4,
      courseMaterials: materials,
    },
    isLive: row.isLive,
    isDraft: row.isDraft,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    lastEditedAt: row.lastEditedAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The exam as the caller's role may see it (@exam/domain/roles), with that role and its capabilities so the app
 * shows only the controls that apply: without 'exam:read-content' (a proctor) no questions, rubrics or passages;
 * without 'exam:edit' (a grader, a viewer) not the provider key's last characters.
 */
export function forGrant(exam: Exam, grant: ExamGrant): Exam {
  const capabilities = capabilitiesOf(grant);
  const has = (c: ExamCapability) => capabilities.includes(c);
  return {
    ...exam,
    ...(!has('exam:read-content') && { questions: [], rubrics: [], passages: [] }),
    ...(!has('exam:edit') && { aiSettings: { ...exam.aiSettings, apiKeyLast4: null } }),
    role: grant.role,
    capabilities,
  };
}
