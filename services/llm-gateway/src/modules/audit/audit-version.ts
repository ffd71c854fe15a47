import { createHash } from 'node:crypto';
import type { InternalExam } from '@exam/domain/internal';

/**
 * The exam version an audit or a solvability check ran against (issue 34: reports are "stored per exam version"):
 * a SHA-256 over what the assistant is told and what its guard compares, in a fixed order. Anything else (title,
 * timer, the key itself, budgets, follow-up settings, who may sit the exam) leaves the version as it was, so a
 * report stays current until an edit could change what a candidate's assistant says.
 */
export function auditVersionOf(exam: InternalExam): string {
  const ai = exam.aiSettings;
  const told = {
    questions: exam.questions,
    sections: exam.sections,
    assistant: {
      enabled: ai.enabled,
      provider: ai.provider,
      model: ai.model.trim(),
      baseUrl: ai.baseUrl,
      customPrompt: ai.customPrompt,
      stopSolutions: ai.stopSolutions,
      processCode: ai.processCode,
      courseAssistanceEnabled: ai.courseAssistanceEnabled,
      courseAssistanceLevel: ai.courseAssistanceLevel,
      contextLength: ai.contextLength,
      plantedErrors: ai.plantedErrors,
    },
    materials: exam.materialTexts,
  };
  return createHash('sha256').update(JSON.stringify(told)).digest('hex').slice(0, 32);
}
