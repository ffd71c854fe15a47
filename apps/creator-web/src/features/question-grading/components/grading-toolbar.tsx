import type { QuestionAnswers } from '@exam/domain/question-grading';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Progress } from '@exam/ui/progress';
import { Select } from '@exam/ui/select';
import { Switch } from '@exam/ui/switch';
import { ChevronDown, ChevronUp } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { filterOf, showOf } from '../hooks/use-answer-filter.ts';
import type { MarkingSession } from '../hooks/use-marking-session.ts';
import { isFlagged, isUnmarked, sharedGroups, type AnswerFilter } from '../lib/answer-items.ts';

/** How a group is named in the filter: its answer, cut short, and its size. */
const GROUP_LABEL_CHARS = 40;
const shortAnswer = (answer: string) =>
  answer.length > GROUP_LABEL_CHARS ? `${answer.slice(0, GROUP_LABEL_CHARS).trimEnd()}…` : answer;

type Props = {
  data: QuestionAnswers;
  session: MarkingSession;
  filter: AnswerFilter;
  onFilterChange: (filter: AnswerFilter) => void;
  names: boolean;
  onNamesChange: (names: boolean) => void;
  namesLoading: boolean;
};

/** Progress ("12 of 87 marked"), which answers to show, names shown or hidden, and the way through them. */
export function GradingToolbar({ data, session, filter, onFilterChange, names, onNamesChange, namesLoading }: Props) {
  const { t } = useTranslation('question-grading');
  const filterId = useId();
  const namesId = useId();
  const { marked, total } = data.progress;
  const options = [
    { value: 'all', label: t('filter.all', { count: session.items.length }) },
    { value: 'ungraded', label: t('filter.ungraded', { count: session.items.filter(isUnmarked).length }) },
    { value: 'flagged', label: t('filter.flagged', { count: session.items.filter(isFlagged).length }) },
    ...sharedGroups(session.items).map((item) => ({
      value: showOf({ kind: 'group', groupId: item.representative.groupId }),
      label: t('filter.group', { answer: shortAnswer(item.representative.answer), count: item.rows.length }),
    })),
  ];
  return (
    <Card className="flex flex-col gap-4 p-4">
      <div className="flex flex-col gap-1.5">
        <p className="text-sm font-medium text-ink" data-testid="grading-progress">
          {t('toolbar.progress', { marked, total })}
        </p>
        <Progress value={total ? (marked / total) * 100 : 0} label={t('toolbar.progressLabel')} />
      </div>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={filterId} className="text-sm font-medium text-ink">
            {t('filter.label')}
          </label>
          <Select
            id={filterId}
            className="w-72"
            value={showOf(filter)}
            options={options}
            onValueChange={(value) => onFilterChange(filterOf(value))}
          />
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor={namesId} className="text-sm font-medium text-ink">
            {t('toolbar.showNames')}
          </label>
          <Switch
            id={namesId}
            checked={names}
            onCheckedChange={onNamesChange}
            disabled={namesLoading}
            aria-describedby={`${namesId}-hint`}
          />
          <span id={`${namesId}-hint`} className="sr-only">
            {t('toolbar.namesHint')}
          </span>
        </div>
        <nav aria-label={t('toolbar.navigation')} className="flex items-center gap-2">
          <Button
            variant="secondary"
            size="sm"
            onClick={session.previous}
            disabled={session.position <= 0}
            aria-keyshortcuts="K ArrowUp"
          >
            <ChevronUp aria-hidden className="h-4 w-4" /> {t('toolbar.previous')}
          </Button>
          <span className="text-sm tabular-nums text-muted" data-testid="answer-position" aria-live="polite">
            {session.item ? t('toolbar.position', { n: session.position + 1, total: session.shown.length }) : ''}
          </span>
          <Button
            variant="secondary"
            size="sm"
            onClick={session.next}
            disabled={session.position < 0 || session.position >= session.shown.length - 1}
            aria-keyshortcuts="J ArrowDown"
          >
            <ChevronDown aria-hidden className="h-4 w-4" /> {t('toolbar.next')}
          </Button>
        </nav>
      </div>
    </Card>
  );
}
