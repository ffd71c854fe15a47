import type { QuestionAnswer } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { ListChecks } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../config/paths.ts';

/**
 * The question a result's "Grade by question" opens: the first of its answers still awaiting a grader, in the
 * exam's own numbering (a shuffled attempt's place differs), else the exam's first question.
 */
export function firstAwaitingQuestion(
  answers: ReadonlyArray<Pick<QuestionAnswer, 'points' | 'questionIndex' | 'examQuestionIndex'>>,
) {
  const awaiting = answers.find((qa) => qa.points === null);
  return awaiting ? (awaiting.examQuestionIndex ?? awaiting.questionIndex) : 0;
}

/** "Grade by question" on the submissions list, the grader and a result's page: one question for every candidate. */
export function GradeByQuestionLink({ examId, questionIndex = 0 }: { examId: string; questionIndex?: number }) {
  const { t } = useTranslation('common');
  return (
    <Button asChild variant="secondary">
      <Link to={paths.gradeQuestion(examId, questionIndex)}>
        <ListChecks aria-hidden className="h-4 w-4" /> {t('gradeByQuestion')}
      </Link>
    </Button>
  );
}
