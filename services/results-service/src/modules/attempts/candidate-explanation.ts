import { isAnswered } from '@exam/domain/answer-text';
import { answerParts, gradedByTests } from '@exam/domain/grading';
import type { CandidateCriterion, CandidateResult, PartialCredit } from '@exam/domain/result';
import type { StoredGrade } from '../../scoring/score.ts';
import type { ExamSnapshot } from '../../scoring/snapshot.ts';

/**
 * What a released result explains about each question's points (docs/product.md#results-and-grading, "Release"):
 * who marked it, the rubric's criteria with the points given for each, and, for answers scored in parts, how many
 * parts were right. Counts come from the one scoring module (@exam/domain/grading answerParts, the runner's
 * verdicts), never which part is right, so nothing here tells the key to a candidate of an exam that hides keys.
 */

type Question = ExamSnapshot['questions'][number];
type Explanation = Pick<CandidateResult['questions'][number], 'markedBy' | 'criteria' | 'partialCredit'>;

const PART_KINDS: Partial<Record<Question['type'], PartialCredit['kind']>> = {
  'fill-blanks': 'gaps',
  matching: 'pairs',
  ordering: 'order',
};

function markedBy(q: Question, grade: StoredGrade | undefined): Explanation['markedBy'] {
  if (!grade || grade.points === null) return undefined;
  if (grade.manual) return 'grader';
  if (gradedByTests(q) && grade.tests) return 'tests';
  return grade.autoScored ? 'key' : 'grader';
}

/** The rubric's criteria, each with the points given: its worth when the grader ticked it, 0 otherwise. */
function criteriaOf(q: Question, grade: StoredGrade | undefined, snapshot: ExamSnapshot): CandidateCriterion[] {
  const rubric = q.rubricId ? snapshot.rubrics.find((r) => r.id === q.rubricId) : undefined;
  if (!rubric || !grade || grade.points === null || !grade.manual) return [];
  const ticked = new Set(grade.criteria);
  return rubric.criteria.map((c) => ({
    description: c.description,
    maxPoints: c.points,
    points: ticked.has(c.id) ? c.points : 0,
  }));
}

function partialCreditOf(q: Question, grade: StoredGrade | undefined): PartialCredit | undefined {
  if (!grade || grade.points === null || grade.manual) return undefined;
  if (gradedByTests(q)) {
    const tests = grade.tests;
    if (tests?.state !== 'done' || tests.verdicts.length === 0) return undefined;
    const right = tests.verdicts.filter((v) => v.outcome === 'passed').length;
    return { kind: 'tests', right, of: tests.verdicts.length, rule: 'partial' };
  }
  const kind = PART_KINDS[q.type];
  const answer = grade.answer ?? undefined;
  if (!kind || !grade.autoScored || !isAnswered(q, answer)) return undefined;
  const parts = answerParts(q, answer);
  if (!parts || parts.length === 0) return undefined;
  return { kind, right: parts.filter(Boolean).length, of: parts.length, rule: q.scoring };
}

export function explainPoints(q: Question, grade: StoredGrade | undefined, snapshot: ExamSnapshot): Explanation {
  const by = markedBy(q, grade);
  const criteria = criteriaOf(q, grade, snapshot);
  const partialCredit = partialCreditOf(q, grade);
  return {
    ...(by ? { markedBy: by } : {}),
    ...(criteria.length > 0 ? { criteria } : {}),
    ...(partialCredit ? { partialCredit } : {}),
  };
}
