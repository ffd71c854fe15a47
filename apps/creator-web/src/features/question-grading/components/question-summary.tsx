import { formatPoints } from '@exam/domain/grading';
import type { QuestionAnswers } from '@exam/domain/question-grading';
import { Badge } from '@exam/ui/badge';
import { Card } from '@exam/ui/card';
import { RichText } from '@exam/ui/rich-text';
import { useTranslation } from 'react-i18next';
import { PassageDisclosure } from '../../../components/answers/structured-answer.tsx';
import { questionName } from '../../../lib/display-names.ts';
import { useGradingExam } from '../api/get-question-answers.ts';

/**
 * The question being marked: its title, text, shared passage, points and rubric, so the grader never leaves the
 * screen to read it.
 */
export function QuestionSummary({ data }: { data: QuestionAnswers }) {
  const { t } = useTranslation(['question-grading', 'common']);
  const exam = useGradingExam(data.examId);
  const passageId = exam.data?.questions[data.questionIndex]?.passageId;
  const passage = passageId ? exam.data?.passages.find((p) => p.id === passageId) : undefined;
  const n = data.questionIndex + 1;
  return (
    <Card className="flex flex-col gap-3 p-5" role="region" aria-label={t('summary.label', { n })}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-lg font-semibold text-ink">
            {t('summary.heading', { n, title: questionName(data.title) })}
          </h2>
          <p className="text-xs text-muted">{t(`common:questionType.${data.type}`)}</p>
        </div>
        <div className="flex items-center gap-2">
          <span className="text-sm font-medium text-ink" data-testid="question-max-points">
            {t('summary.worth', { points: formatPoints(data.maxPoints), count: data.maxPoints })}
          </span>
          {!data.humanGraded && <Badge tone="info">{t('summary.scoredByKey')}</Badge>}
        </div>
      </div>
      {passage && <PassageDisclosure title={passage.title} content={passage.content} />}
      {data.content && <RichText className="text-sm text-ink">{data.content}</RichText>}
      {data.rubric && (
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-muted">
            {data.rubric.title || t('summary.rubric')}
          </p>
          <ol className="mt-1 flex list-inside list-decimal flex-col gap-0.5 text-sm text-ink">
            {data.rubric.criteria.map((c) => (
              <li key={c.id}>
                {t('summary.criterionPoints', {
                  description: c.description,
                  points: formatPoints(c.points),
                  count: c.points,
                })}
              </li>
            ))}
          </ol>
        </div>
      )}
    </Card>
  );
}
