import { FieldAlert } from './list-controls.tsx';
import { BLANK_KINDS, type BlankKind } from '@exam/domain/question-kinds';
import { Button } from '@exam/ui/button';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { QuestionInput } from '../../lib/question-form.ts';
import { StringListEditor } from '../string-list-editor.tsx';

export type BlankInput = NonNullable<QuestionInput['blanks']>[number];

/** One gap: its kind, what is accepted (or, for a drop-down, its options with the right ones ticked) and its weight. */
export function BlankEditor({
  index,
  gap,
  blank,
  onChange,
  onRemove,
  error,
}: {
  index: number;
  gap: number;
  blank: BlankInput;
  onChange: (blank: BlankInput) => void;
  onRemove: () => void;
  error: (path: string) => string | undefined;
}) {
  const { t } = useTranslation('question-kinds');
  const n = index + 1;
  const g = gap + 1;
  const kind: BlankKind = blank.kind ?? 'text';
  const accepted = blank.accepted ?? [];
  const options = blank.options ?? [];
  const at = (field: string) => error(`blanks.${gap}.${field}`);
  const setKind = (next: BlankKind) =>
    onChange({
      ...blank,
      kind: next,
      // A drop-down's right answers are among its options: start from them rather than from typed answers.
      ...(next === 'choice'
        ? { options: options.length ? options : ['', ''], accepted: [] }
        : { accepted: accepted.length ? accepted : [''] }),
    });
  const tick = (option: string, on: boolean) =>
    onChange({ ...blank, accepted: on ? [...accepted, option] : accepted.filter((a) => a !== option) });
  const editOptions = (next: string[]) =>
    onChange({
      ...blank,
      options: next,
      // A ticked option keeps its tick while it is edited, and loses it when removed.
      accepted:
        next.length === options.length
          ? options.flatMap((o, i) => (accepted.includes(o) ? [next[i] ?? ''] : []))
          : accepted.filter((a) => next.includes(a)),
    });
  const gapError = error(`blanks.${gap}`);
  const acceptedErrors = accepted.map((_a, k) => at(`accepted.${k}`));
  return (
    <section aria-label={t('blanks.gap', { n, g })} className="flex flex-col gap-3 rounded-lg border border-line p-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p className="text-sm font-medium text-ink">{t('blanks.gapTitle', { g })}</p>
        <Button
          variant="ghost"
          size="sm"
          className="text-danger"
          aria-label={t('blanks.removeLabel', { n, g })}
          onClick={onRemove}
        >
          <Trash2 aria-hidden className="h-4 w-4" /> {t('blanks.remove')}
        </Button>
      </div>
      <FieldAlert message={gapError} />
      <div className="flex flex-wrap items-end gap-4">
        <Field label={t('blanks.kind', { n, g })} className="w-48">
          <Select
            value={kind}
            options={BLANK_KINDS.map((value) => ({ value, label: t(`blanks.kinds.${value}`) }))}
            onValueChange={(v) => setKind(v as BlankKind)}
          />
        </Field>
        {kind === 'numeric' && (
          <Field label={t('blanks.tolerance', { n, g })} error={at('tolerance')} className="w-40">
            <Input
              type="number"
              min={0}
              step="any"
              inputMode="decimal"
              value={Number.isFinite(blank.tolerance) ? blank.tolerance : 0}
              onChange={(e) => onChange({ ...blank, tolerance: Number(e.target.value) || 0 })}
            />
          </Field>
        )}
        <Field label={t('blanks.weight', { n, g })} hint={t('blanks.weightHint')} error={at('weight')} className="w-40">
          <Input
            type="number"
            min={0.01}
            step="any"
            inputMode="decimal"
            value={Number.isFinite(blank.weight) ? blank.weight : ''}
            onChange={(e) => onChange({ ...blank, weight: Number(e.target.value) })}
          />
        </Field>
      </div>
      {kind === 'choice' ? (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-ink">{t('blanks.options', { n, g })}</legend>
          <p className="text-xs text-muted">{t('blanks.optionsHint')}</p>
          <StringListEditor
            values={options}
            onChange={editOptions}
            itemLabel={(k) => t('blanks.option', { n, g, k: k + 1 })}
            removeLabel={(k) => t('blanks.removeOption', { n, g, k: k + 1 })}
            placeholder={() => t('blanks.optionPlaceholder')}
            addLabel={t('blanks.addOptionLabel', { n, g })}
            addText={t('blanks.addOption')}
            renderLeading={(k) => (
              <label className="flex shrink-0 items-center gap-1.5 text-xs text-muted">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-brand-600"
                  aria-label={t('blanks.optionIsRight', { n, g, k: k + 1 })}
                  checked={accepted.includes(options[k] ?? '')}
                  onChange={(e) => tick(options[k] ?? '', e.target.checked)}
                />
                <span aria-hidden>{t('blanks.right')}</span>
              </label>
            )}
          />
          {(at('options') ?? at('accepted') ?? acceptedErrors.find(Boolean)) && (
            <p role="alert" className="text-xs text-danger">
              {at('options') ?? at('accepted') ?? acceptedErrors.find(Boolean)}
            </p>
          )}
        </fieldset>
      ) : (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-ink">{t('blanks.accepted', { n, g })}</legend>
          <StringListEditor
            values={accepted}
            onChange={(next) => onChange({ ...blank, accepted: next })}
            itemLabel={(k) => t('blanks.acceptedAnswer', { n, g, k: k + 1 })}
            removeLabel={(k) => t('blanks.removeAccepted', { n, g, k: k + 1 })}
            placeholder={() => (kind === 'numeric' ? t('blanks.numberPlaceholder') : t('blanks.answerPlaceholder'))}
            addLabel={t('blanks.addAcceptedLabel', { n, g })}
            addText={t('blanks.addAccepted')}
            minItems={1}
            errors={acceptedErrors}
          />
          {at('accepted') && (
            <p role="alert" className="text-xs text-danger">
              {at('accepted')}
            </p>
          )}
        </fieldset>
      )}
    </section>
  );
}
