import type { QuestionAnswer } from '@exam/domain/result';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { examNumbering, ownNumber, type ExamNumberOf } from '../lib/exam-numbering.ts';

const NumberingContext = createContext<ExamNumberOf>(ownNumber);

/**
 * Everything under it that names a question by the candidate's index (the process, the replay, the transcript's tags,
 * the grade history) numbers it as the exam does.
 */
export function QuestionNumberingProvider({
  answers,
  children,
}: {
  answers: ReadonlyArray<Pick<QuestionAnswer, 'questionIndex' | 'examQuestionIndex'>>;
  children: ReactNode;
}) {
  const numberOf = useMemo(() => examNumbering(answers), [answers]);
  return <NumberingContext.Provider value={numberOf}>{children}</NumberingContext.Provider>;
}

/** The exam's number of the question the candidate saw at a given index (their own number outside a result). */
export function useExamNumber(): ExamNumberOf {
  return useContext(NumberingContext);
}
