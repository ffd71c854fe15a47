import { Select } from '@exam/ui/select';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { questionName } from '../../../lib/display-names.ts';
import { useExamQuestions } from '../api/get-question-answers.ts';
import { isHumanGraded } from '../lib/human-graded.ts';

/**
 * Every question of the exam, the ones a grader marks said so, to switch the screen to another question. Until
 * (or unless) the exam's questions load, the choices are the question numbers alone.
 */
export function QuestionPicker({
  examId,
  current,
  questionCount,
}: {
  examId: string;
  current: number;
  questionCount: number;
}) {
  const { t } = useTranslation('question-grading');
  const id = useId();
  const navigate = useNavigate();
  const questions = useExamQuestions(examId);
  const options = questions.data
    ? questions.data.map((q, index) => ({
        value: String(index),
        label: t(isHumanGraded(q) ? 'picker.optionByHand' : 'picker.option', {
          n: index + 1,
          title: questionName(q.title),
        }),
      }))
    : Array.from({ length: questionCount }, (_, index) => ({
        value: String(index),
        label: t('picker.numberOnly', { n: index + 1 }),
      }));
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {t('picker.label')}
      </label>
      <Select
        id={id}
        className="w-80"
        value={String(current)}
        options={options}
        onValueChange={(value) => void navigate(paths.gradeQuestion(examId, Number(value)))}
      />
    </div>
  );
}
