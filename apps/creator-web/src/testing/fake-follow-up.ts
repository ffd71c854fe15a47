import {
  DEFAULT_FOLLOW_UP_RUBRIC,
  FollowUpForGraderSchema,
  MarkFollowUpSchema,
  type FollowUpForGrader,
  type FollowUpRubricLevel,
} from '@exam/domain/follow-up';
import { sumPoints } from '@exam/domain/grading';
import { http, HttpResponse } from 'msw';
import type { z } from 'zod';
import { errorBody } from './handlers.ts';

type Question = FollowUpForGrader['questions'][number];

/** One follow-up question as GET /api/results/{id}/follow-up lists it: asked, answered in time, not marked. */
export function makeFollowUpQuestion(overrides: Partial<Question> & Pick<Question, 'n' | 'questionIndex'>): Question {
  return {
    text: `Why did you answer question ${overrides.questionIndex + 1} that way?`,
    answer: 'Because it halves the range each step.',
    askedAt: '2025-01-05T14:31:00.000Z',
    answeredAt: '2025-01-05T14:33:00.000Z',
    timedOut: false,
    mark: null,
    ...overrides,
  };
}

/** The points results-service derives: awarded over the marked questions, the most the asked ones can give. */
function withPoints(followUp: Omit<FollowUpForGrader, 'points'>): FollowUpForGrader {
  const best = Math.max(0, ...followUp.rubric.map((l) => l.points));
  const marks = followUp.questions.flatMap((q) => (q.mark ? [q.mark] : []));
  return FollowUpForGraderSchema.parse({
    ...followUp,
    points: {
      awarded: sumPoints(marks.map((m) => m.points)),
      max: sumPoints(followUp.questions.map(() => best)),
      marked: marks.length,
    },
  });
}

export function makeFollowUp(overrides: Partial<Omit<FollowUpForGrader, 'points'>> = {}): FollowUpForGrader {
  return withPoints({
    status: 'done',
    note: null,
    rubric: DEFAULT_FOLLOW_UP_RUBRIC.map((l) => ({ ...l })),
    questions: [],
    ...overrides,
  });
}

/**
 * A fake results-service's follow-up of one result: GET, and PUT …/{n}/mark the way the contract says (a level
 * index within the exam's rubric or null to clear; 400 with the issue otherwise). Mark bodies are recorded.
 */
export function fakeFollowUpService(resultId: string, initial: FollowUpForGrader) {
  const marks: Array<{ n: number; body: z.infer<typeof MarkFollowUpSchema> }> = [];
  let current = initial;
  let clock = Date.parse('2025-01-06T09:00:00.000Z');
  const notFound = () => HttpResponse.json(errorBody('NOT_FOUND', 'Result not found'), { status: 404 });

  const handlers = [
    http.get('*/api/results/:id/follow-up', ({ params }) =>
      params.id === resultId ? HttpResponse.json(current) : notFound(),
    ),
    http.put('*/api/results/:id/follow-up/:n/mark', async ({ params, request }) => {
      if (params.id !== resultId) return notFound();
      const n = Number(params.n);
      const body = MarkFollowUpSchema.parse(await request.json());
      marks.push({ n, body });
      const question = current.questions.find((q) => q.n === n);
      if (!question) return notFound();
      if (body.level !== null && body.level >= current.rubric.length)
        return HttpResponse.json(
          errorBody('VALIDATION_FAILED', 'Invalid request', [
            { path: 'level', message: `Choose one of the rubric's ${current.rubric.length} levels` },
          ]),
          { status: 400 },
        );
      clock += 60_000;
      const mark =
        body.level === null
          ? null
          : {
              level: body.level,
              points: current.rubric[body.level]!.points,
              feedback: body.feedback,
              markedAt: new Date(clock).toISOString(),
              markedBy: 'grader@example.com',
            };
      current = withPoints({ ...current, questions: current.questions.map((q) => (q.n === n ? { ...q, mark } : q)) });
      return HttpResponse.json(current);
    }),
  ];
  return {
    handlers,
    marks,
    current: () => current,
    /** The creator changed the exam's follow-up rubric after the grader's page loaded. */
    setRubric(rubric: FollowUpRubricLevel[]) {
      current = withPoints({ ...current, rubric });
    },
  };
}
