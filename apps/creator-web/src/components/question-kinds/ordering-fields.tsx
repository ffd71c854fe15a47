import { RemoveButton, AddButton, FieldAlert } from './list-controls.tsx';
import { Button } from '@exam/ui/button';
import { Input } from '@exam/ui/input';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ScoringSelect } from './scoring-select.tsx';
import { useQuestionField, useQuestionValue } from './use-question-field.ts';

/**
 * An ordering question's items, written in the right order (question-kinds.ts): the candidate gets them shuffled.
 * Moved with buttons, never by drag alone, so the keyboard does everything.
 */
export function OrderingFields({ index }: { index: number }) {
  const { t } = useTranslation('question-kinds');
  const { set, error } = useQuestionField(index);
  const items = useQuestionValue(index, 'items') ?? [];
  const n = index + 1;
  const move = (from: number, to: number) => {
    const next = [...items];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item ?? '');
    set('items', next);
  };
  const listError = error('items');
  return (
    <div className="flex flex-col gap-3">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-ink">{t('ordering.legend', { n })}</legend>
        <p className="text-xs text-muted">{t('ordering.hint')}</p>
        <ol className="flex flex-col gap-2">
          {items.map((item, i) => {
            const itemError = error(`items.${i}`);
            return (
              <li key={i} className="flex flex-col gap-1">
                <div className="flex items-center gap-2">
                  <span aria-hidden className="w-6 text-right text-sm text-muted">
                    {i + 1}.
                  </span>
                  <Input
                    aria-label={t('ordering.item', { n, k: i + 1 })}
                    aria-invalid={itemError ? true : undefined}
                    value={item}
                    onChange={(e) =>
                      set(
                        'items',
                        items.map((v, k) => (k === i ? e.target.value : v)),
                      )
                    }
                  />
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t('ordering.moveUp', { n, k: i + 1 })}
                    disabled={i === 0}
                    onClick={() => move(i, i - 1)}
                  >
                    <ArrowUp aria-hidden className="h-4 w-4" />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t('ordering.moveDown', { n, k: i + 1 })}
                    disabled={i === items.length - 1}
                    onClick={() => move(i, i + 1)}
                  >
                    <ArrowDown aria-hidden className="h-4 w-4" />
                  </Button>
                  <RemoveButton
                    label={t('ordering.remove', { n, k: i + 1 })}
                    onClick={() =>
                      set(
                        'items',
                        items.filter((_v, k) => k !== i),
                      )
                    }
                  />
                </div>
                {itemError && <p className="ml-8 text-xs text-danger">{itemError}</p>}
              </li>
            );
          })}
        </ol>
        <FieldAlert message={listError} />
        <div>
          <AddButton
            label={t('ordering.addLabel', { n })}
            disabled={items.length >= 20}
            onClick={() => set('items', [...items, ''])}
          >
            {t('ordering.add')}
          </AddButton>
        </div>
      </fieldset>
      <ScoringSelect index={index} partialRule={t('ordering.partialRule')} />
    </div>
  );
}
