import type { PublicPassage } from '@exam/domain/passages';
import { RichText } from '@exam/ui/rich-text';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

type PassageAsideProps = {
  passage: PublicPassage;
  /** The questions (0-based indexes) this passage is shown beside here. */
  questions: readonly number[];
};

/**
 * A shared passage (docs/product.md#shared-passages) as a complementary landmark named by its title: a side column
 * beside its questions on a wide room, above them on a narrow one (passage-group.tsx lays it out). Its content is
 * Markdown rendered as question content is. Hide passage folds it to its heading, giving the questions the width.
 */
export function PassageAside({ passage, questions }: PassageAsideProps) {
  const { t } = useTranslation('question-kinds');
  const [open, setOpen] = useState(true);
  const bodyId = useId();
  const title = passage.title.trim() || t('passage.untitled');
  const first = (questions[0] ?? 0) + 1;
  const last = (questions.at(-1) ?? 0) + 1;
  return (
    <aside
      aria-label={t('passage.label', { title })}
      className="rounded-card border border-line bg-surface p-4 @3xl:max-h-[calc(100vh-var(--questions-nav-height,0px)-10rem)] @3xl:overflow-y-auto"
      data-testid={`passage-${passage.id}`}
      data-open={open}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="text-sm font-semibold text-ink">{title}</h3>
          <p className="text-xs text-muted">
            {first === last ? t('passage.forQuestion', { number: first }) : t('passage.forQuestions', { first, last })}
          </p>
        </div>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((o) => !o)}
          className="inline-flex shrink-0 items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-ink hover:bg-canvas"
        >
          {open ? <ChevronDown aria-hidden className="h-4 w-4" /> : <ChevronRight aria-hidden className="h-4 w-4" />}
          {open ? t('passage.hide') : t('passage.show')}
        </button>
      </div>
      <div id={bodyId} hidden={!open} className="mt-3 text-sm text-ink">
        <RichText testId={`passage-content-${passage.id}`}>{passage.content}</RichText>
      </div>
    </aside>
  );
}
