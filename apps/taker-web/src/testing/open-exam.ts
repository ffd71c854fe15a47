import type { PublicExam } from '@exam/domain/public-exam';
import type { PublicQuestion } from '@exam/domain/question';
import { buildPublicExam } from './factories.ts';
import { createFakeResultsService } from './fake-results-service.ts';
import { renderRoute } from './render.tsx';
import { seedAttempt } from './seed.ts';
import { server } from './server.ts';

/** A started attempt at an exam of `questions`, its room rendered at /exam/{id}, answers saved to a fake service. */
export async function openExam(questions: PublicQuestion[], overrides: Partial<PublicExam> = {}) {
  const exam = buildPublicExam({ questions, questionCount: questions.length, ...overrides });
  const fake = createFakeResultsService({ exam });
  server.use(...fake.handlers);
  await seedAttempt(exam, fake.attemptId);
  return { ...renderRoute(`/exam/${exam.id}`), fake, exam };
}
