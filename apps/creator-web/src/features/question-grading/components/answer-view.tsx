import { formatPoints } from '@exam/domain/grading';
import type { Question } from '@exam/domain/question';
import type { QuestionAnswerRow, QuestionAnswers } from '@exam/domain/question-grading';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { toast } from '@exam/ui/toaster';
import { FileText, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { HighlightedText } from '../../../components/answers/highlighted-text.tsx';
import { PartialCredit, StructuredAnswer } from '../../../components/answers/structured-answer.tsx';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useGradingExam } from '../api/get-question-answers.ts';
import { useDetachAnswer } from '../api/mark-answers.ts';
import type { MarkingSession } from '../hooks/use-marking-session.ts';
import { isFlagged, isUnmarked, type AnswerItem } from '../lib/answer-items.ts';
import { candidateLabel, fileSize } from '../lib/candidate-label.ts';
import { rowView } from '../lib/row-view.ts';
import { DecisionLine } from './decision-line.tsx';

/**
 * The answer's own words: typed text, an uploaded file's name and the text read from it, or an answer of the
 * further types laid out part by part as on the result page.
 */
function AnswerBody({ row, quote, data, question }: { row: QuestionAnswerRow; quote: string } & QuestionProps) {
  const { t } = useTranslation('question-grading');
  const text = row.file ? (row.fileText ?? '') : row.answer;
  const view = rowView(question, data, row);
  if (view)
    return (
      <div className="flex flex-col gap-2" data-testid="answer-structured">
        <StructuredAnswer view={view} quote={quote} />
        <PartialCredit view={view} points={row.points} maxPoints={row.maxPoints} testId="answer-partial-credit" />
      </div>
    );
  return (
    <div className="flex flex-col gap-2">
      {row.file && (
        <p className="flex items-center gap-2 text-sm text-ink" data-testid="answer-file">
          <FileText aria-hidden className="h-4 w-4" />
          {t('answer.file', { fileName: row.file.fileName, size: fileSize(row.file.size) })}
        </p>
      )}
      {row.file && row.fileText === null ? (
        <p className="text-sm text-muted">{t('answer.unreadableFile')}</p>
      ) : text.trim() === '' ? (
        <p className="text-sm text-muted">{t('answer.empty')}</p>
      ) : (
        <pre
          className="max-h-[28rem] overflow-auto whitespace-pre-wrap break-words rounded-md bg-canvas p-3 font-sans text-sm text-ink"
          data-testid="answer-text"
        >
          <HighlightedText text={text} quote={quote} />
        </pre>
      )}
    </div>
  );
}

/** The status of the item's mark as a badge: marked (and the points), to mark, and flagged for a closer look. */
function ItemBadges({ item }: { item: AnswerItem }) {
  const { t } = useTranslation('question-grading');
  const { points, autoScored } = item.representative;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {isFlagged(item) && <Badge tone="warning">{t('answer.flagged')}</Badge>}
      {isUnmarked(item) ? (
        <Badge tone="warning">{t('answer.unmarked')}</Badge>
      ) : (
        <Badge tone={autoScored ? 'info' : 'brand'}>
          {t(autoScored ? 'answer.scoredByKey' : 'answer.marked', {
            points: formatPoints(points ?? 0),
            count: points ?? 0,
          })}
        </Badge>
      )}
    </div>
  );
}

/** A group's banner: one mark covers every member; a member can be taken out to be marked alone. */
function GroupBanner({ examId, data, session, item, question }: Props & QuestionProps & { item: AnswerItem }) {
  const { t } = useTranslation('question-grading');
  const detach = useDetachAnswer(examId, data.questionIndex);
  const count = item.rows.length;
  const markAlone = (row: QuestionAnswerRow) =>
    detach.mutate(
      { resultId: row.resultId, detached: true },
      {
        onSuccess: () => {
          toast.success(t('group.detached', { candidate: candidateLabel(row) }));
          session.goToKey(`answer:${row.resultId}`);
        },
        onError: (error) => toast.error(userMessageOf(error)),
      },
    );
  return (
    <div
      className="flex flex-col gap-2 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900"
      data-testid="group-banner"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex items-center gap-2 font-medium">
          <Users aria-hidden className="h-4 w-4" /> {t('group.shared', { count, all: count })}
        </p>
        <Button
          variant="secondary"
          size="sm"
          disabled={detach.isPending}
          onClick={() => markAlone(item.representative)}
        >
          {t('group.markAlone')}
        </Button>
      </div>
      {(item.group?.forms ?? 1) > 1 && <p>{t('group.nearIdentical', { forms: item.group?.forms ?? 1 })}</p>}
      <details>
        <summary className="cursor-pointer">{t('group.members', { count })}</summary>
        <ul className="mt-2 flex flex-col gap-2" aria-label={t('group.membersLabel')}>
          {item.rows.map((row) => (
            <li key={row.resultId} className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="font-medium">{candidateLabel(row)}</p>
                {row.answer !== item.representative.answer && (
                  <MemberAnswer row={row} data={data} question={question} />
                )}
              </div>
              <Button
                variant="ghost"
                size="sm"
                disabled={detach.isPending}
                onClick={() => markAlone(row)}
                aria-label={t('group.markAloneFor', { candidate: candidateLabel(row) })}
              >
                {t('group.markAloneShort')}
              </Button>
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}

/** An answer a grader took out of its group: marked alone, and can go back. */
function DetachedNote({ examId, data, session, item }: Props & { item: AnswerItem }) {
  const { t } = useTranslation('question-grading');
  const detach = useDetachAnswer(examId, data.questionIndex);
  const row = item.representative;
  const putBack = () =>
    detach.mutate(
      { resultId: row.resultId, detached: false },
      {
        onSuccess: () => session.goToKey(`group:${row.groupId}`),
        onError: (error) => toast.error(userMessageOf(error)),
      },
    );
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-line bg-canvas p-3 text-sm">
      <p>{t('group.markedAlone')}</p>
      <Button variant="ghost" size="sm" disabled={detach.isPending} onClick={putBack}>
        {t('group.putBack')}
      </Button>
    </div>
  );
}

type Props = { examId: string; data: QuestionAnswers; session: MarkingSession };
/** The exam's question, once the exam is loaded: it lays out the answers of the further types. */
type QuestionProps = { data: QuestionAnswers; question: Question | undefined };

/** A group member's answer where it differs from the one shown: laid out as the main answer is, or as text. */
function MemberAnswer({ row, data, question }: { row: QuestionAnswerRow } & QuestionProps) {
  const view = rowView(question, data, row);
  if (view)
    return (
      <div className="mt-1 text-ink">
        <StructuredAnswer view={view} />
      </div>
    );
  return <p className="whitespace-pre-wrap break-words text-sky-800">{row.answer}</p>;
}

/** The answer (or group of identical answers) on screen, who wrote it, and how it stands. */
export function AnswerView({ examId, data, session }: Props) {
  const { t } = useTranslation('question-grading');
  const exam = useGradingExam(examId);
  const question = exam.data?.questions[data.questionIndex];
  const item = session.item;
  if (!item) return null;
  const row = item.representative;
  const others = item.rows.length - 1;
  const heading =
    others > 0 ? t('answer.headingGroup', { candidate: candidateLabel(row), count: others }) : candidateLabel(row);
  return (
    <Card className="flex flex-col gap-3 p-5" role="region" aria-label={t('answer.label')} data-testid="current-answer">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="font-semibold text-ink" data-testid="answer-candidate">
            {heading}
          </h3>
          <DecisionLine row={row} />
        </div>
        <ItemBadges item={item} />
      </div>
      {item.rows.length > 1 && (
        <GroupBanner examId={examId} data={data} session={session} item={item} question={question} />
      )}
      {item.detached && <DetachedNote examId={examId} data={data} session={session} item={item} />}
      <AnswerBody
        row={row}
        quote={session.suggestion?.current ? session.suggestion.quote : ''}
        data={data}
        question={question}
      />
    </Card>
  );
}
