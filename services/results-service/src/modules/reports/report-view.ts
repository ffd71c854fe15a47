import {
  awayTime,
  cohortPercentile,
  topicResults,
  type CandidateReport,
  REPORT_MIN_COHORT,
} from '@exam/domain/candidate-report';
import type { CollaborationProfile } from '@exam/domain/collaboration';
import { usedAssistant } from '@exam/domain/collaboration-figures';
import { percentageOf, type StoredGrade } from '../../scoring/score.ts';
import type { ExamSnapshot } from '../../scoring/snapshot.ts';
import type { results } from '../../db/schema.ts';

export type ReportSources = {
  result: typeof results.$inferSelect;
  snapshot: ExamSnapshot;
  deadline: Date | null;
  attemptNo: number;
  /** The other candidates' kept, graded percentages (reports.repository.ts cohortPercentages). */
  cohort: number[];
  events: ReadonlyArray<{ type: string; at: Date }>;
  /** The collaboration profile, or null when it could not be read. */
  profile: CollaborationProfile | null;
  expiresAt: Date;
};

/** The attempt's questions in the exam's own order (a shuffled attempt's arrangement undone), with their grades. */
function inExamOrder(snapshot: ExamSnapshot, grades: readonly StoredGrade[]) {
  const source = snapshot.arrangement?.sourceIndices;
  return snapshot.questions
    .map((q, i) => ({ q, grade: grades[i], order: source?.[i] ?? i }))
    .sort((a, b) => a.order - b.order)
    .map(({ q, grade }) => ({
      title: q.title,
      topic: q.topic,
      sectionId: q.sectionId,
      maxPoints: q.points,
      points: grade?.points ?? null,
    }));
}

function collaborationOf(profile: CollaborationProfile | null): CandidateReport['collaboration'] {
  if (!profile) return { state: 'unavailable', dimensions: [] };
  const figure = (dimension: string, name: string) =>
    profile.dimensions.find((d) => d.dimension === dimension)?.figures[name] ?? 0;
  if (!usedAssistant(figure('framing', 'messagesSent'), figure('integration', 'assistantInserted')))
    return { state: 'not-used', dimensions: [] };
  return {
    state: profile.unavailable.includes('assistant') ? 'unavailable' : 'shown',
    dimensions: profile.dimensions.map((d) => ({ dimension: d.dimension, level: d.level, basis: d.basis })),
  };
}

/**
 * The report of one result, from what the database holds and the collaboration profile: nothing of the answers,
 * the keys or the other candidates but their count and this result's place among them.
 */
export function buildReport(src: ReportSources): CandidateReport {
  const { result, snapshot } = src;
  const percentage = percentageOf(result.score, result.maxScore);
  const pending = result.status === 'pending';
  const placed = cohortPercentile([...src.cohort, percentage], percentage);
  const submittedAt = result.completedAt;
  const limitSeconds = snapshot.timerEnabled
    ? Math.round(
        src.deadline ? (src.deadline.getTime() - result.startedAt.getTime()) / 1000 : snapshot.timerMinutes * 60,
      )
    : null;
  const summary = result.process?.summary;
  const focus = awayTime(src.events, 'focus-lost', 'focus-gained', submittedAt);
  const fullscreen = awayTime(src.events, 'fullscreen-exit', 'fullscreen-enter', submittedAt);
  return {
    candidate: { name: result.userName, studentId: result.studentId },
    exam: { title: result.examTitle },
    attemptNo: src.attemptNo,
    startedAt: result.startedAt.toISOString(),
    submittedAt: submittedAt.toISOString(),
    score: { points: result.score, maxPoints: result.maxScore, percentage, status: result.status },
    topics: topicResults(inExamOrder(snapshot, result.grades), snapshot.sections ?? []),
    percentile: pending
      ? { value: null, cohortSize: placed.cohortSize, minimumCohort: REPORT_MIN_COHORT, withheld: 'pending' }
      : { ...placed, minimumCohort: REPORT_MIN_COHORT },
    time: { spentSeconds: result.timeSpent, limitSeconds },
    process: summary
      ? {
          characters: summary.characters,
          typedPercent: summary.typedPercent,
          pastedPercent: summary.pastedPercent,
          assistantPercent: summary.assistantPercent,
          autocompletePercent: summary.autocompletePercent,
          restoredPercent: summary.restoredPercent,
          assistantMessages: summary.assistantMessages,
        }
      : null,
    collaboration: collaborationOf(src.profile),
    integrity: {
      fullScreenRequired: snapshot.fullScreenEnabled === true,
      focusLost: focus,
      fullscreenExits: fullscreen,
      pastesBlocked: src.events.filter((e) => e.type === 'paste-blocked').length,
    },
    expiresAt: src.expiresAt.toISOString(),
  };
}
