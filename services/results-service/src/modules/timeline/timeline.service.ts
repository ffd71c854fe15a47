import type { RunReport } from '@exam/domain/coding';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { Timeline, TimelineEvent } from '@exam/domain/timeline';
import { attributeAgentChanges, type AgentCall } from '@exam/domain/workspace-agents';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.ts';
import { cohortByQuestion } from './cohort-percentiles.ts';
import { buildAnswer, operationsByQuestion, questionTexts } from './timeline-answers.ts';
import {
  agentCallEvents,
  announcementEvents,
  assistantEvents,
  followUpEvents,
  editEvents,
  inTimeOrder,
  proctorEvents,
  sectionEvents,
  testRunEvents,
  workspaceEvents,
} from './timeline-events.ts';
import type { TimelineRepository } from './timeline.repository.ts';
import { scaleBy } from '../attempts/sections.service.ts';
import type { FollowUpService } from '../follow-up/follow-up.service.ts';

type Upstream = Pick<Deps, 'attemptTranscripts' | 'workspaceHistory' | 'codeRunner'> & {
  /** The attempt's follow-up after submit (modules/follow-up): its questions asked and answered. */
  followUp: Pick<FollowUpService, 'forTimeline'>;
};

/**
 * One attempt's timeline (GET /api/results/{id}/timeline): what the database holds, read table by table, and what
 * llm-gateway and workspace-orchestrator hold, asked at the same time. Another service that fails leaves its part
 * empty and named in `unavailable`; the timeline is still served.
 */
export function createTimelineService(repo: TimelineRepository, deps: Upstream, log: FastifyBaseLogger) {
  /** The call's value, or undefined (logged) when the other service failed. */
  async function settle<T>(what: string, call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (err) {
      log.warn({ err }, `the timeline goes on without ${what}`);
      return undefined;
    }
  }

  return {
    async timeline(resultId: string, ownerId: string): Promise<Timeline> {
      const found = await repo.findOwned(resultId, ownerId);
      if (!found) throw new AppError(ErrorCode.NOT_FOUND, 'Result not found');
      const { attemptId, snapshot } = found;
      const startedAt = found.startedAt;
      const submittedAt = found.submittedAt ?? found.completedAt;

      // The agent's calls are asked for only when the attempt's workspace had one (the exam as the candidate sat it).
      const hadAgent = snapshot.codingWorkspace?.enabled === true && snapshot.codingWorkspace.ai?.mode === 'agent';
      const agentCallsRead = hadAgent
        ? settle('the agent calls', () => deps.attemptTranscripts.findAgentCalls(attemptId))
        : Promise.resolve([] as AgentCall[]);
      const [chunks, answerTimes, eventRows, runs, notices, cohort, messages, history, followUp] = await Promise.all([
        repo.operationChunks(attemptId),
        repo.answerTimes(attemptId),
        repo.events(attemptId),
        repo.testRuns(attemptId).then(async (rows) => ({
          rows,
          reports: await settle('the test runs’ outcomes', async () =>
            rows.length === 0
              ? new Map<string, RunReport>()
              : new Map((await deps.codeRunner.lookup(rows.map((r) => r.runId))).map((r) => [r.runId, r])),
          ),
        })),
        repo.announcementsBetween(found.examId, startedAt, submittedAt),
        repo.cohort(found.examId, resultId).then(cohortByQuestion),
        settle('the assistant transcript', () => deps.attemptTranscripts.findAttemptTranscript(attemptId)),
        snapshot.codingWorkspace?.enabled
          ? settle('the workspace file history', () => deps.workspaceHistory.fileHistory(attemptId))
          : Promise.resolve({ files: [], capped: false }),
        deps.followUp.forTimeline(attemptId),
      ]);

      const agentCalls = await agentCallsRead;
      // Each workspace change an agent call made names it (attributeAgentChanges, workspace-agents.ts).
      const workspaceFiles = (history?.files ?? []).map((file) => {
        if (!agentCalls?.length) return file;
        const causes = attributeAgentChanges(file.changes, agentCalls);
        return { ...file, changes: file.changes.map((change, i) => ({ ...change, agentCallId: causes[i] ?? null })) };
      });
      const replies = (messages ?? []).filter((m) => m.role === 'assistant').map((m) => m.content);
      const recorded = operationsByQuestion(chunks, startedAt.getTime());
      const savedAt = new Map(answerTimes.map((a) => [a.questionIndex, a.updatedAt]));
      const answers = snapshot.questions.map((question, questionIndex) =>
        buildAnswer({
          questionIndex,
          final: found.grades[questionIndex]?.answer ?? '',
          recorded: recorded.get(questionIndex) ?? [],
          gapAt: (savedAt.get(questionIndex) ?? submittedAt).toISOString(),
          visible: [...questionTexts(question), ...replies],
          cohort: cohort.get(question.id),
        }),
      );

      const events: TimelineEvent[] = [
        ...proctorEvents(eventRows, startedAt),
        ...editEvents(answers),
        ...assistantEvents(messages ?? []),
        ...testRunEvents(runs.rows, runs.reports),
        ...workspaceEvents(workspaceFiles),
        ...agentCallEvents(agentCalls ?? []),
        ...announcementEvents(notices),
        ...sectionEvents({
          sections: snapshot.sections ?? [],
          rows: eventRows,
          startedAt,
          stored: { index: found.sectionIndex, startedAt: found.sectionStartedAt ?? startedAt },
          submittedAt,
          minutesFor: scaleBy(found.timeFactor),
        }),
      ];
      if (found.operationsCappedAt)
        events.push({ at: found.operationsCappedAt.toISOString(), kind: 'recording-capped' });
      events.push({ at: submittedAt.toISOString(), kind: 'submit' });
      // After the submit: follow-up questions are asked once it is in (an equal time keeps this order).
      if (followUp) events.push(...followUpEvents(followUp.stored.questions, followUp.snapshot));

      const unavailable: Timeline['unavailable'] = [];
      // The agent's calls are the gateway's too: without them the assistant part is incomplete.
      if (!messages || !agentCalls) unavailable.push('assistant');
      // The runner is workspace-orchestrator too: runs without their outcome mean it could not be asked.
      if (!history || !runs.reports) unavailable.push('workspace');

      return {
        resultId,
        attemptId,
        startedAt: startedAt.toISOString(),
        submittedAt: submittedAt.toISOString(),
        events: inTimeOrder(events),
        answers,
        workspaceFiles,
        messages: (messages ?? []).map((m) => ({ id: m.id, role: m.role, content: m.content, at: m.createdAt })),
        ...(hadAgent ? { agentCalls: agentCalls ?? [] } : {}),
        unavailable,
      };
    },
  };
}
export type TimelineService = ReturnType<typeof createTimelineService>;
