import { Field } from '@exam/ui/field';
import { cn } from '@exam/ui/lib/cn';
import { RichText } from '@exam/ui/rich-text';
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';

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
  const { t } = useTranslation('common');
  return (
    <div className={cn('grid gap-3', !stacked && 'lg:grid-cols-2')}>
      <Field
        label={label}
        hint={hint ? t('richTextField.hintAndMarkdown', { hint }) : t('richTextField.markdown')}
        error={error}
      >
        {children}
      </Field>
      <div className="flex min-w-0 flex-col gap-1.5">
        <p aria-hidden className="text-sm font-medium text-ink">
          {t('richTextField.preview')}
        </p>
        <div
          role="region"
          aria-label={t('richTextField.labelPreview', { label })}
          className="min-h-20 rounded-lg border border-dashed border-line bg-surface px-3 py-2 text-sm text-ink"
        >
          {text.trim() ? (
            <RichText>{text}</RichText>
          ) : (
            <p className="text-muted">{t('richTextField.nothingToPreviewYet')}</p>
          )}
        </div>
      </div>
    </div>
  );
}
