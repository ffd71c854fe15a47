import '../lib/question-kinds-i18n.ts';
import { BlanksAnswer } from './blanks-answer.tsx';
import { EssayAnswer } from './essay-answer.tsx';
import type { KindAnswerProps } from './kind-answer-props.ts';
import { MatchingAnswer } from './matching-answer.tsx';
import { OrderingAnswer } from './ordering-answer.tsx';
import { QuantityAnswer } from './quantity-answer.tsx';
import { TrueFalseAnswer } from './true-false-answer.tsx';

/**
 * One chunk for the further question types' inputs and the shared passage, fetched by dynamic import the first
 * time an exam shows one (question-card.tsx, passage-group.tsx): an exam of multiple choice and short answers
 * loads none of it (the page-weight budget, .size-limit.js).
 */
export { PassageAside } from './passage-aside.tsx';

export function KindAnswer(props: KindAnswerProps) {
  switch (props.question.type) {
    case 'essay':
      return <EssayAnswer {...props} />;
    case 'true-false':
      return <TrueFalseAnswer {...props} />;
    case 'ordering':
      return <OrderingAnswer {...props} />;
    case 'matching':
      return <MatchingAnswer {...props} />;
    case 'fill-blanks':
      return <BlanksAnswer {...props} />;
    case 'numeric':
    case 'calculated':
      return <QuantityAnswer {...props} />;
    default:
      return null;
  }
}
