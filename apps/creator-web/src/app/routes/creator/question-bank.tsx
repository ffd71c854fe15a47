import { QuestionBank } from '../../../features/bank/components/question-bank.tsx';

export function QuestionBankRoute() {
  return <QuestionBank />;
}
