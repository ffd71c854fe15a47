import { Button } from '@exam/ui/button';
import { Field } from '@exam/ui/field';
import { Textarea } from '@exam/ui/input';
import { Plus } from 'lucide-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from '../checkbox-field.tsx';
import { BlankEditor, type BlankInput } from './blank-editor.tsx';
import { useQuestionField, useQuestionValue } from './use-question-field.ts';

export const NEW_BLANK: BlankInput = { kind: 'text', accepted: [''], options: [], tolerance: 0, weight: 1 };

/** `[[gone]]` taken out of the text, and the later gaps' markers renumbered to follow the list. */
export function removeGapMarker(text: string, gone: number): string {
  return text.replace(/\[\[(\d{1,2})\]\]/g, (whole, number: string) => {
    const n = Number(number);
    if (n === gone) return '';
    return n > gone ? `[[${n - 1}]]` : whole;
  });
}

/**
 * A fill-in-the-blanks question (question-kinds.ts): the text with its gaps written `[[1]]`, `[[2]]`…, and each
 * gap's key. "Insert gap" writes the next marker where the cursor is and adds its gap.
 */
export function FillBlanksFields({ index }: { index: number }) {
  const { t } = useTranslation('question-kinds');
  const { set, get, error } = useQuestionField(index);
  const gapText = useQuestionValue(index, 'gapText') ?? '';
  const blanks = useQuestionValue(index, 'blanks') ?? [];
  const caseSensitive = useQuestionValue(index, 'matching.caseSensitive') ?? false;
  const textArea = useRef<HTMLTextAreaElement | null>(null);
  const n = index + 1;

  const insertGap = () => {
    const current = get('gapText') ?? '';
    const element = textArea.current;
    const start = element?.selectionStart ?? current.length;
    const end = element?.selectionEnd ?? current.length;
    const marker = `[[${blanks.length + 1}]]`;
    set('gapText', current.slice(0, start) + marker + current.slice(end));
    set('blanks', [...blanks, { ...NEW_BLANK, accepted: [''] }]);
    // Back to the text, just after the marker, so the creator types on.
    requestAnimationFrame(() => {
      if (!element) return;
      element.focus();
      element.setSelectionRange(start + marker.length, start + marker.length);
    });
  };
  const removeBlank = (i: number) => {
    set('gapText', removeGapMarker(get('gapText') ?? '', i + 1));
    set(
      'blanks',
      blanks.filter((_b, k) => k !== i),
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <Field label={t('blanks.text', { n })} hint={t('blanks.textHint')} error={error('gapText')}>
          <Textarea
            ref={textArea}
            rows={4}
            className="font-mono"
            value={gapText}
            onChange={(e) => set('gapText', e.target.value)}
          />
        </Field>
        <div className="flex flex-wrap items-center gap-4">
          <Button
            variant="secondary"
            size="sm"
            aria-label={t('blanks.insertLabel', { n })}
            disabled={blanks.length >= 50}
            onClick={insertGap}
          >
            <Plus aria-hidden className="h-4 w-4" /> {t('blanks.insert')}
          </Button>
          {/* Case applies to text gaps only; numeric gaps compare numbers and drop-downs their exact option. */}
          {blanks.some((b) => b.kind === 'text') && (
            <CheckboxField
              label={t('blanks.caseSensitive', { n })}
              checked={caseSensitive}
              onChange={(on) => set('matching.caseSensitive', on)}
            />
          )}
        </div>
      </div>
      {blanks.map((blank, i) => (
        <BlankEditor
          key={i}
          index={index}
          gap={i}
          blank={blank}
          onChange={(next) =>
            set(
              'blanks',
              blanks.map((b, k) => (k === i ? next : b)),
            )
          }
          onRemove={() => removeBlank(i)}
          error={error}
        />
      ))}
    </div>
  );
}
