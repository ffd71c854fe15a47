import { cn } from '@exam/ui/lib/cn';
import { Check, Circle, Flag, Lock } from 'lucide-react';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SectionGroup } from '../lib/section-view.ts';
import { isAnswered } from './question-card.tsx';

type QuestionNavProps = {
  count: number;
  answers: ReadonlyMap<number, string>;
  flagged: ReadonlySet<number>;
  current: number;
  onJump: (index: number) => void;
  /** The exam's sections with their questions; empty for an undivided exam (one plain list). */
  groups?: readonly SectionGroup[] | undefined;
  /** Questions the candidate gets in all (with sections, more than those reached so far); `count` otherwise. */
  total?: number | undefined;
};

/**
 * Every question's number and state at the top of the questions panel. The state is in each button's name
 * and drawn as an icon (a tick, an empty circle, a flag), never by colour alone; the current question has
 * aria-current. A button takes the candidate to its question. With sections, the questions sit under their
 * section's heading, which says whether the section is the current one, locked, or still ahead.
 */
export function QuestionNav({ count, answers, flagged, current, onJump, groups = [], total = count }: QuestionNavProps) {
  const { t } = useTranslation('questions');
  const answered = Array.from({ length: count }, (_, index) => isAnswered(answers.get(index))).filter(Boolean).length;
  const button = (index: number) => {
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
  };
  return (
    <nav aria-label={t('nav.label')} className="flex flex-col gap-2" data-testid="question-nav">
      {groups.length === 0 ? (
        <ol className="flex max-h-28 flex-wrap gap-1.5 overflow-y-auto p-0.5">
          {Array.from({ length: count }, (_, index) => button(index))}
        </ol>
      ) : (
        <div className="flex max-h-48 flex-col gap-2 overflow-y-auto p-0.5">
          {groups.map((group) => (
            <SectionNavGroup key={group.section.id} group={group}>
              {group.questions.map(button)}
            </SectionNavGroup>
          ))}
        </div>
      )}
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted" data-testid="question-nav-summary">
        <span>{t('nav.summary', { answered, total })}</span>
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

/** A section's heading in the navigation (its number and title), where it stands, and its questions. */
function SectionNavGroup({ group, children }: { group: SectionGroup; children: ReactNode }) {
  const { t } = useTranslation('room');
  const { section, standing, index } = group;
  const headingId = `nav-section-${index}-heading`;
  return (
    <section
      aria-labelledby={headingId}
      aria-current={standing === 'current' ? 'step' : undefined}
      data-testid={`nav-section-${index}`}
      data-standing={standing}
      className={cn('rounded-md px-1.5 py-1', standing === 'current' && 'bg-brand-50')}
    >
      <div className="mb-1 flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs">
        <h2 id={headingId} className="font-semibold text-ink">
          {sectionName(t, section.title, index)}
        </h2>
        <span className="inline-flex items-center gap-1 text-muted" data-testid={`nav-section-${index}-standing`}>
          {standing === 'locked' && <Lock aria-hidden className="h-3 w-3" />}
          {t(`sections.standing.${standing}`)}
        </span>
        <span className="text-muted">
          {section.assistant ? t('sections.assistantOn') : t('sections.assistantOff')}
        </span>
      </div>
      {standing === 'upcoming' ? (
        <p className="text-xs text-muted">{t('sections.questionCount', { count: section.questionCount })}</p>
      ) : (
        <ol className="flex flex-wrap gap-1.5">{children}</ol>
      )}
    </section>
  );
}

/** 'Section 2: Without the assistant', or 'Section 2' for a section without a title. */
export function sectionName(t: TFunction<'room'>, title: string, index: number): string {
  return title.trim()
    ? t('sections.name', { number: index + 1, title: title.trim() })
    : t('sections.untitled', { number: index + 1 });
}
