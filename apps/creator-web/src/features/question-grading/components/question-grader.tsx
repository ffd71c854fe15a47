import type { QuestionAnswers } from '@exam/domain/question-grading';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner } from '@exam/ui/spinner';
import { AlertTriangle, ArrowLeft, FileQuestion } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { examName } from '../../../lib/display-names.ts';
import { useQuestionAnswers } from '../api/get-question-answers.ts';
import { useAnswerFilter } from '../hooks/use-answer-filter.ts';
import { useGraderKeys } from '../hooks/use-grader-keys.ts';
import { useMarkingSession } from '../hooks/use-marking-session.ts';
import { AgreementFigures } from './agreement-figures.tsx';
import { AnswerView } from './answer-view.tsx';
import { GradingToolbar } from './grading-toolbar.tsx';
import { MarkingForm } from './marking-form.tsx';
import { QuestionPicker } from './question-picker.tsx';
import { QuestionSummary } from './question-summary.tsx';
import { ShortcutLegend } from './shortcut-legend.tsx';
import { SuggestionPanel } from './suggestion-panel.tsx';

/** The question's place in the URL is its number as graders read it (1 for the first); the API's index is 0-based. */
function indexOf(questionNumber: string): number | undefined {
  const n = Number(questionNumber);
  return Number.isInteger(n) && n >= 1 && n <= 500 ? n - 1 : undefined;
}

function BackToSubmissions({ examId }: { examId: string }) {
  const { t } = useTranslation('question-grading');
  return (
    <Button asChild variant="ghost" size="sm">
      <Link to={paths.examSubmissions(examId)}>
        <ArrowLeft aria-hidden className="h-4 w-4" /> {t('grader.backToSubmissions')}
      </Link>
    </Button>
  );
}

/**
 * /creator/grade/{examId}/question/{n}: every candidate's answer to one question, marked one answer (or one
 * group of identical answers) after another, names hidden until the grader shows them (docs/product.md).
 */
export function QuestionGrader({ examId, questionNumber }: { examId: string; questionNumber: string }) {
  const { t } = useTranslation('question-grading');
  const questionIndex = indexOf(questionNumber);
  // Anonymous grading: every visit starts with names hidden.
  const [names, setNames] = useState(false);
  const answers = useQuestionAnswers(examId, questionIndex ?? 0, names);

  if (questionIndex === undefined || (answers.error instanceof ApiError && answers.error.status === 404)) {
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={<FileQuestion aria-hidden />}
          title={t('grader.notFound')}
          action={<BackToSubmissions examId={examId} />}
        />
      </Card>
    );
  }
  if (answers.isPending) return <PageSpinner label={t('grader.loading')} />;
  if (answers.isError) {
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={<AlertTriangle aria-hidden />}
          title={t('grader.couldNotLoad')}
          description={userMessageOf(answers.error)}
          action={<Button onClick={() => void answers.refetch()}>{t('grader.tryAgain')}</Button>}
        />
      </Card>
    );
  }
  return (
    <GradingScreen
      // Another question is another session: its place, filter and draft start afresh.
      key={questionIndex}
      examId={examId}
      data={answers.data}
      names={names}
      onNamesChange={setNames}
      namesLoading={answers.isPlaceholderData}
    />
  );
}

type ScreenProps = {
  examId: string;
  data: QuestionAnswers;
  names: boolean;
  onNamesChange: (names: boolean) => void;
  namesLoading: boolean;
};

function GradingScreen({ examId, data, names, onNamesChange, namesLoading }: ScreenProps) {
  const { t } = useTranslation('question-grading');
  const [filter, setFilter] = useAnswerFilter();
  const session = useMarkingSession(examId, data, filter);
  useGraderKeys((action) => {
    switch (action.kind) {
      case 'next':
        return session.next();
      case 'previous':
        return session.previous();
      case 'criterion':
        return session.toggleCriterion(action.index);
      case 'full':
        return session.setPoints(data.maxPoints);
      case 'zero':
        return session.setPoints(0);
      case 'accept':
        return session.accept();
      case 'save':
        return session.save();
      case 'names':
        onNamesChange(!names);
        return true;
    }
  });

  return (
    <>
      <PageHeader
        back={<BackToSubmissions examId={examId} />}
        title={t('grader.title')}
        description={examName(data.examTitle)}
        actions={<QuestionPicker examId={examId} current={data.questionIndex} questionCount={data.questionCount} />}
      />
      <div className="flex flex-col gap-6">
        <QuestionSummary data={data} />
        <GradingToolbar
          data={data}
          session={session}
          filter={filter}
          onFilterChange={setFilter}
          names={names}
          onNamesChange={onNamesChange}
          namesLoading={namesLoading}
        />
        <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
          {session.item && session.draft ? (
            <section aria-label={t('grader.answerSection')} className="flex flex-col gap-4">
              <AnswerView examId={examId} data={data} session={session} />
              <MarkingForm data={data} session={session} />
            </section>
          ) : (
            <Card>
              <EmptyState
                icon={<FileQuestion aria-hidden />}
                title={data.answers.length === 0 ? t('grader.noAnswers') : t('grader.noneMatch')}
              />
            </Card>
          )}
          <aside className="flex flex-col gap-6">
            <SuggestionPanel examId={examId} data={data} session={session} />
            <AgreementFigures examId={examId} questionIndex={data.questionIndex} />
            <ShortcutLegend />
          </aside>
        </div>
      </div>
    </>
  );
}
