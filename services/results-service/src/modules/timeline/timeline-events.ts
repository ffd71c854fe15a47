import { PROCTOR_EVENT_TYPES, type ProctorEventType } from '@exam/domain/attempt';
import type { RunReport } from '@exam/domain/coding';
import type { TranscriptMessage } from '@exam/domain/internal';
import type { TimelineAnswer, TimelineEvent } from '@exam/domain/timeline';
import type { z } from 'zod';
import type { WorkspaceFileHistorySchema } from '@exam/domain/timeline';
import type { AgentCall } from '@exam/domain/workspace-agents';
import { SECTION_START_EVENT, sectionAt, type Section, type SectionProgress } from '@exam/domain/sections';
import { derivedStarts } from '../attempts/sections.service.ts';
import type { FollowUpQuestionRow } from '../follow-up/follow-up.repository.ts';
import { candidateIndexOf } from '../question-grading/question-numbering.ts';
import type { ExamSnapshot } from '../../scoring/snapshot.ts';
import type { AnnouncementRow, EventRow, TestRunRow } from './timeline.repository.ts';

const proctorTypes = new Set<string>(PROCTOR_EVENT_TYPES);

/**
 * The page's proctoring events, each placed at its own clock shifted onto the server's. The page sends events
 * through an outbox, so one recorded after an offline spell happened long before `recordedAt`; its `clientAt`
 * says when, in the candidate's clock. The shift is the smallest `recordedAt − clientAt` of the attempt: the
 * clock's offset as the promptest event shows it (plus that event's delivery time), so no event lands after the
 * server recorded it. An event without a readable `clientAt` stays at `recordedAt`.
 */
export function proctorEvents(rows: ReadonlyArray<EventRow>, startedAt: Date): TimelineEvent[] {
  const known = rows.filter((row) => proctorTypes.has(row.type));
  const clientMs = known.map((row) => (row.clientAt ? Date.parse(row.clientAt) : Number.NaN));
  let offset = Number.POSITIVE_INFINITY;
  known.forEach((row, i) => {
    if (Number.isFinite(clientMs[i])) offset = Math.min(offset, row.recordedAt.getTime() - clientMs[i]!);
  });
  return known.map((row, i) => {
    const client = clientMs[i]!;
    const at =
      Number.isFinite(client) && Number.isFinite(offset)
        ? Math.max(startedAt.getTime(), client + offset)
        : row.recordedAt.getTime();
    const event: TimelineEvent = { at: new Date(at).toISOString(), kind: row.type as ProctorEventType };
    if (row.questionIndex !== null) event.questionIndex = row.questionIndex;
    if (row.detail) event.detail = row.detail;
    return event;
  });
}

/** One event per operation of each answer, pointing into answers[i].operations. */
export function editEvents(answers: ReadonlyArray<TimelineAnswer>): TimelineEvent[] {
  return answers.flatMap((answer) =>
    answer.operations.map((op, operation) => ({
      at: op.at,
      kind: 'answer-edit' as const,
      questionIndex: answer.questionIndex,
      operation,
    })),
  );
}

/** The candidate's messages and the assistant's replies; a withheld reply is the guardrail's stop. */
export function assistantEvents(messages: ReadonlyArray<TranscriptMessage>): TimelineEvent[] {
  return messages.map((message) => {
    const event: TimelineEvent = {
      at: message.createdAt,
      kind: message.role === 'user' ? 'assistant-user' : message.isWithheld ? 'guardrail-stop' : 'assistant-reply',
      messageId: message.id,
    };
    if (message.questionIndex !== null) event.questionIndex = message.questionIndex;
    if (message.isWithheld) event.detail = 'The reply was stopped: it was about to give away an answer key.';
    else if (message.isError) event.detail = 'The assistant failed to answer.';
    else if (message.isPartial) event.detail = 'The reply was cut short: the candidate left while it streamed.';
    // Reliance calibration (docs/product.md#reliance-calibration-planted-errors): the timeline is the creator's.
    if (message.planted) {
      const planted = `Planted error: ${message.planted.error} (${message.planted.verified ? 'the reply contained it' : 'the reply did not contain it; not counted'}).`;
      event.detail = event.detail ? `${event.detail} ${planted}` : planted;
    }
    return event;
  });
}

/**
 * The candidate's "Run tests": passed of total once the runner's report is done. `reports` undefined: the runner
 * could not be asked, so no run has an outcome; a run it no longer knows has none either.
 */
export function testRunEvents(
  runs: ReadonlyArray<TestRunRow>,
  reports: ReadonlyMap<string, RunReport> | undefined,
): TimelineEvent[] {
  return runs.map((run) => {
    const event: TimelineEvent = {
      at: run.createdAt.toISOString(),
      kind: 'test-run',
      questionIndex: run.questionIndex,
    };
    const report = reports?.get(run.runId);
    if (report?.state === 'done') {
      event.passed = report.verdicts.filter((v) => v.outcome === 'passed').length;
      event.total = report.verdicts.length;
    } else if (report) {
      event.detail = `The run ended ${report.state}.`;
    } else {
      event.detail = reports ? 'The runner no longer keeps this run.' : 'The runner could not be reached.';
    }
    return event;
  });
}

/**
 * One event per call of the workspace's coding agent, at its start: `messageId` its id in `agentCalls`, `detail` its
 * status (with the reason of one that did not end ok) and the names of the tools it asked for.
 */
export function agentCallEvents(calls: ReadonlyArray<AgentCall>): TimelineEvent[] {
  return calls.map((call) => {
    const status = call.status === 'ok' || !call.reason ? call.status : `${call.status}: ${call.reason}`;
    const tools = [...new Set(call.toolCalls.map((tool) => tool.name))];
    return {
      at: call.startedAt,
      kind: 'agent-call' as const,
      messageId: call.id,
      detail: tools.length ? `${status}; tools: ${tools.join(', ')}` : status,
    };
  });
}

export function workspaceEvents(files: ReadonlyArray<z.infer<typeof WorkspaceFileHistorySchema>>): TimelineEvent[] {
  return files.flatMap((file) =>
    file.changes.map((change, index) => {
      const event: TimelineEvent = { at: change.at, kind: 'workspace-change', path: file.path, change: index };
      if (change.deleted) event.detail = 'deleted';
      return event;
    }),
  );
}

export function announcementEvents(rows: ReadonlyArray<AnnouncementRow>): TimelineEvent[] {
  return rows.map((row) => ({ at: row.createdAt.toISOString(), kind: 'announcement', detail: row.text }));
}

/** A section's name for the timeline: its number and title. */
const sectionName = (sections: ReadonlyArray<Pick<Section, 'title'>>, index: number) => {
  const title = sections[index]?.title.trim();
  return title ? `Section ${index + 1}: ${title}` : `Section ${index + 1}`;
};

/**
 * When the candidate entered each section: the first at the start, each move stored (the server records one
 * section-start event per section entered, by the candidate's advance or by a time limit), and the moves a time
 * limit made after the last one stored, derived as sectionAt derives them up to the submission.
 */
export function sectionEvents(input: {
  sections: ReadonlyArray<Pick<Section, 'title' | 'timeLimitMinutes'>>;
  rows: ReadonlyArray<EventRow>;
  startedAt: Date;
  stored: SectionProgress;
  submittedAt: Date;
  minutesFor: (minutes: number) => number;
}): TimelineEvent[] {
  const { sections } = input;
  if (sections.length === 0) return [];
  const starts = new Map<number, Date>([[0, input.startedAt]]);
  for (const row of input.rows) {
    if (row.type !== SECTION_START_EVENT) continue;
    const index = Number(row.detail);
    if (Number.isInteger(index) && !starts.has(index)) starts.set(index, row.recordedAt);
  }
  const reached = sectionAt(sections, input.stored, input.submittedAt, input.minutesFor).index;
  for (const s of derivedStarts(sections, input.stored, reached, input.minutesFor))
    if (!starts.has(s.index)) starts.set(s.index, s.at);
  return [...starts]
    .sort(([a], [b]) => a - b)
    .map(([index, at]) => ({
      at: at.toISOString(),
      kind: 'section-start' as const,
      detail: sectionName(sections, index),
    }));
}

/**
 * The follow-up after submit (docs/product.md#follow-up-questions): each question asked (`detail` its text) and
 * answered (`detail` 'answered', or 'timed-out' when the time ran out). `questionIndex` is the probed question in the
 * candidate's own order, as the timeline's answers are numbered.
 */
export function followUpEvents(
  questions: ReadonlyArray<Pick<FollowUpQuestionRow, 'questionIndex' | 'text' | 'askedAt' | 'answeredAt' | 'timedOut'>>,
  snapshot: Pick<ExamSnapshot, 'arrangement' | 'questions'>,
): TimelineEvent[] {
  return questions.flatMap((q) => {
    if (!q.askedAt) return [];
    const probed = candidateIndexOf(snapshot, q.questionIndex);
    const about = probed === undefined ? {} : { questionIndex: probed };
    const asked: TimelineEvent = { at: q.askedAt.toISOString(), kind: 'follow-up-asked', ...about, detail: q.text };
    if (!q.answeredAt) return [asked];
    const answered: TimelineEvent = {
      at: q.answeredAt.toISOString(),
      kind: 'follow-up-answered',
      ...about,
      detail: q.timedOut ? 'timed-out' : 'answered',
    };
    return [asked, answered];
  });
}

/** Events in time order; equal times keep the order given (a stable sort), so the submit, added last, ends. */
export function inTimeOrder(events: TimelineEvent[]): TimelineEvent[] {
  return events
    .map((event, i) => ({ event, i, t: Date.parse(event.at) }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map(({ event }) => event);
}
