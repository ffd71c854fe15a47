import { RemoveButton, AddButton, FieldAlert } from './list-controls.tsx';
import { Input } from '@exam/ui/input';
import { ArrowRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { StringListEditor } from '../string-list-editor.tsx';
import { ScoringSelect } from './scoring-select.tsx';
import { useQuestionField, useQuestionValue } from './use-question-field.ts';

/**
 * A matching question's pairs (prompt → its right answer) and distractors (answers that match no prompt). The
 * candidate picks an answer for each prompt from a list of every answer.
 */
export function MatchingPairsFields({ index }: { index: number }) {
  const { t } = useTranslation('question-kinds');
  const { set, error } = useQuestionField(index);
  const pairs = useQuestionValue(index, 'pairs') ?? [];
  const distractors = useQuestionValue(index, 'distractors') ?? [];
  const n = index + 1;
  const edit = (i: number, side: 'prompt' | 'answer', value: string) =>
    set(
      'pairs',
      pairs.map((p, k) => (k === i ? { prompt: p.prompt ?? '', answer: p.answer ?? '', [side]: value } : p)),
    );
  const listError = error('pairs');
  return (
    <div className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-ink">{t('matching.legend', { n })}</legend>
        <p className="text-xs text-muted">{t('matching.hint')}</p>
        <ul className="flex flex-col gap-2">
          {pairs.map((pair, i) => {
            const promptError = error(`pairs.${i}.prompt`);
            const answerError = error(`pairs.${i}.answer`);
            return (
              <li key={i} className="flex flex-col gap-1">
                <div className="flex items-center gap-2">
                  <Input
                    aria-label={t('matching.prompt', { n, k: i + 1 })}
                    aria-invalid={promptError ? true : undefined}
                    placeholder={t('matching.promptPlaceholder')}
                    value={pair.prompt ?? ''}
                    onChange={(e) => edit(i, 'prompt', e.target.value)}
                  />
                  <ArrowRight aria-hidden className="h-4 w-4 shrink-0 text-muted" />
                  <Input
                    aria-label={t('matching.answer', { n, k: i + 1 })}
                    aria-invalid={answerError ? true : undefined}
                    placeholder={t('matching.answerPlaceholder')}
                    value={pair.answer ?? ''}
                    onChange={(e) => edit(i, 'answer', e.target.value)}
                  />
                  <RemoveButton
                    label={t('matching.remove', { n, k: i + 1 })}
                    onClick={() =>
                      set(
                        'pairs',
                        pairs.filter((_p, k) => k !== i),
                      )
                    }
                  />
                </div>
                {(promptError || answerError) && (
                  <p className="text-xs text-danger">{[promptError, answerError].filter(Boolean).join(' · ')}</p>
                )}
              </li>
            );
          })}
        </ul>
        <FieldAlert message={listError} />
        <div>
          <AddButton
            label={t('matching.addLabel', { n })}
            disabled={pairs.length >= 20}
            onClick={() => set('pairs', [...pairs, { prompt: '', answer: '' }])}
          >
            {t('matching.add')}
          </AddButton>
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-ink">{t('matching.distractors', { n })}</legend>
        <p className="text-xs text-muted">{t('matching.distractorsHint')}</p>
        <StringListEditor
          values={distractors}
          onChange={(next) => set('distractors', next)}
          itemLabel={(i) => t('matching.distractor', { n, k: i + 1 })}
          removeLabel={(i) => t('matching.removeDistractor', { n, k: i + 1 })}
          placeholder={() => t('matching.distractorPlaceholder')}
          addLabel={t('matching.addDistractorLabel', { n })}
          addText={t('matching.addDistractor')}
          errors={distractors.map((_d, i) => error(`distractors.${i}`))}
        />
      </fieldset>
      <ScoringSelect index={index} partialRule={t('matching.partialRule')} />
    </div>
  );
}
