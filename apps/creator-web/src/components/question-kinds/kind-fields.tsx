import { CalculatedFields } from './calculated-fields.tsx';
import { EssayFields } from './essay-fields.tsx';
import { FillBlanksFields } from './fill-blanks-fields.tsx';
import { MatchingPairsFields } from './matching-pairs-fields.tsx';
import { NumericFields } from './numeric-fields.tsx';
import { OrderingFields } from './ordering-fields.tsx';
import { TrueFalseFields } from './true-false-fields.tsx';
import { useQuestionValue } from './use-question-field.ts';

/** The editor of a question of the further types (question-kinds.ts); nothing for the other types. */
export function KindFields({ index }: { index: number }) {
  const type = useQuestionValue(index, 'type');
  switch (type) {
    case 'essay':
      return <EssayFields index={index} />;
    case 'true-false':
      return <TrueFalseFields index={index} />;
    case 'ordering':
      return <OrderingFields index={index} />;
    case 'matching':
      return <MatchingPairsFields index={index} />;
    case 'fill-blanks':
      return <FillBlanksFields index={index} />;
    case 'numeric':
      return <NumericFields index={index} />;
    case 'calculated':
      return <CalculatedFields index={index} />;
    default:
      return null;
  }
}
