import { cn } from '@exam/ui/lib/cn';
import { Check, Circle, Flag } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { isAnswered } from './question-card.tsx';

type QuestionNavProps = {
  count: number;
  answers: ReadonlyMap<number, string>;
  flagged: ReadonlySet<number>;
  current: number;
  onJump: (index: number) => void;
};

/**
 * Every question's number and state at the top of the questions panel. The state is in each button's name
 * and drawn as an icon (a tick, an empty circle, a flag), never by colour alone; the current question has
 * aria-current. A button takes the candidate to its question.
 */
export function QuestionNav({ count, answers, flagged, current, onJump }: QuestionNavProps) {
  const { t } = useTranslation('questions');
  const answered = Array.from({ length: count }, (_, index) => isAnswered(answers.get(index))).filter(Boolean).length;
  return (
    <nav aria-label={t('nav.label')} className="flex flex-col gap-2" data-testid="question-nav">
      <ol className="flex max-h-28 flex-wrap gap-1.5 overflow-y-auto p-0.5">
        {Array.from({ length: count }, (_, index) => {
          const done = isAnswered(answers.get(index));
          const marked = flagged.has(index);
          const state = done ? t('nav.answered') : t('nav.notAnswered');
          const name = marked
            ? t('nav.itemFlagged', { number: index + 1, state })
            : t('nav.item', { number: index + 1, state });
          return (
            <li key={index}>
              <button
                type="button"
                aria-label={name}
                title={name}
                aria-current={index === current ? 'true' : undefined}
                onClick={() => onJump(index)}
                data-testid={`nav-question-${index}`}
                className={cn(
                  'relative flex h-9 min-w-9 items-center justify-center gap-0.5 rounded-md border px-1.5 text-xs font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500',
                  done ? 'border-green-700 bg-green-50 text-green-800' : 'border-line bg-surface text-ink',
                  index === current && 'ring-2 ring-brand-600 ring-offset-1',
                )}
              >
                {index + 1}
                {done ? <Check aria-hidden className="h-3 w-3" /> : <Circle aria-hidden className="h-2.5 w-2.5" />}
                {marked && (
                  <Flag aria-hidden className="absolute -right-1 -top-1 h-3.5 w-3.5 fill-amber-400 text-amber-700" />
                )}
              </button>
            </li>
          );
        })}
      </ol>
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted" data-testid="question-nav-summary">
        <span>{t('nav.summary', { answered, total: count })}</span>
        {flagged.size > 0 && <span>{t('nav.flaggedCount', { count: flagged.size })}</span>}
        <span aria-hidden className="inline-flex items-center gap-1">
          <Check className="h-3 w-3" />
          {t('nav.legendAnswered')}
        </span>
        <span aria-hidden className="inline-flex items-center gap-1">
          <Circle className="h-2.5 w-2.5" />
          {t('nav.legendPending')}
        </span>
        <span aria-hidden className="inline-flex items-center gap-1">
          <Flag className="h-3 w-3 fill-amber-400 text-amber-700" />
          {t('nav.legendFlagged')}
        </span>
      </p>
    </nav>
  );
}
