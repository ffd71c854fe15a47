import { Field } from '@exam/ui/field';
import { cn } from '@exam/ui/lib/cn';
import { RichText } from '@exam/ui/rich-text';
import type { ComponentProps } from 'react';

/** What authored text may hold, under each field that takes it. */
export const RICH_TEXT_HINT =
  'Markdown: **bold**, `code`, ``` fenced code ```, [links](https://…) and $$x^2$$ for math.';

type RichTextFieldProps = {
  label: string;
  /** The field's own hint, shown before the Markdown one. */
  hint?: string | undefined;
  error?: string | undefined;
  /** The field's current text, rendered live beside it. */
  text: string;
  /** The text control (a Textarea). */
  children: ComponentProps<typeof Field>['children'];
  /** The preview always under the field (a narrow place such as a dialog). */
  stacked?: boolean;
};

/**
 * A field of authored rich text (a question's content, the exam's description and rules) with a live preview
 * rendered by the same RichText the candidate's page, the grader and the results use: beside the field on a
 * wide screen, under it on a narrow one.
 */
export function RichTextField({ label, hint, error, text, children, stacked = false }: RichTextFieldProps) {
  return (
    <div className={cn('grid gap-3', !stacked && 'lg:grid-cols-2')}>
      <Field label={label} hint={hint ? `${hint} ${RICH_TEXT_HINT}` : RICH_TEXT_HINT} error={error}>
        {children}
      </Field>
      <div className="flex min-w-0 flex-col gap-1.5">
        <p aria-hidden className="text-sm font-medium text-ink">
          Preview
        </p>
        <div
          role="region"
          aria-label={`${label} preview`}
          className="min-h-20 rounded-lg border border-dashed border-line bg-surface px-3 py-2 text-sm text-ink"
        >
          {text.trim() ? <RichText>{text}</RichText> : <p className="text-muted">Nothing to preview yet.</p>}
        </div>
      </div>
    </div>
  );
}
