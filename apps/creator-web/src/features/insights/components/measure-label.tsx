import { Tooltip } from '@exam/ui/tooltip';
import { useTranslation } from 'react-i18next';

/**
 * The figures of the insights, each named for what it is: the score creators see everywhere, and the psychometric
 * figures beside it, which are not the score (docs/product.md#insights).
 */
export type Measure = 'rank' | 'score' | 'itemsCorrect' | 'irtAbility' | 'reasoning';

/** A column's name with its short explanation on hover or focus. */
export function MeasureLabel({ measure }: { measure: Measure }) {
  const { t } = useTranslation('insights');
  return (
    <Tooltip content={<span className="block max-w-xs font-normal normal-case">{t(`measures.${measure}.help`)}</span>}>
      <span tabIndex={0} className="cursor-help underline decoration-dotted decoration-slate-300 underline-offset-4">
        {t(`measures.${measure}.label`)}
      </span>
    </Tooltip>
  );
}
