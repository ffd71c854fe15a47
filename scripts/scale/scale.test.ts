// The short form of the scale test (`pnpm test:scale`, part of `pnpm test`): 40 candidates through two
// replicas of every service behind haproxy, one results-service and one llm-gateway replica SIGKILLed and
// restarted while they save, chat and submit. The long form with 200 is bench/scale/run.ts.
import { describe, expect, it } from 'vitest';
import { runScenario, type ScenarioReport } from './scenario.ts';
import { formatReport } from './summary.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;

describe('two replicas of every service behind a round-robin proxy', () => {
  it('loses no acknowledged answer, submits each attempt once, completes every chat and shows no errors once the killed replicas are back', async () => {
    expect(databaseUrl, 'the scale test needs the local PostgreSQL server as TEST_DATABASE_URL').toBeTruthy();
    const report: ScenarioReport = await runScenario({
      adminDatabaseUrl: databaseUrl!,
      ...(process.env.TEST_REDIS_URL ? { redisUrl: process.env.TEST_REDIS_URL } : {}),
      basePort: Number(process.env.SCALE_BASE_PORT ?? 7300),
      candidates: 40,
      beforeFaultMs: 8000,
      downMs: 3000,
      afterMs: 8000,
      saveEveryMs: 1500,
      chatEveryMs: 6000,
      replyDelayMs: 150,
    });
    console.log(formatReport(report));

    const { database: db, windows } = report;
    expect(db.startsFailed, 'candidates who could not start').toBe(0);
    expect(windows.fault.operations, 'requests made while the replicas were down').toBeGreaterThan(0);
    expect(db.acknowledgedSaves).toBeGreaterThan(0);
    expect(db.lostAnswers, 'acknowledged saves missing or older in PostgreSQL').toEqual([]);
    expect(db.unsubmitted, 'candidates whose submit was never acknowledged').toEqual([]);
    expect(db.submissionProblems, 'attempts without exactly one result holding the acknowledged answers').toEqual([]);
    expect(db.chatProblems, 'chats not completed, or not stored whole').toEqual([]);
    // The gateway keeps one message and one reply per clientMessageId, however often the client sent it.
    expect(db.duplicatedChats, 'chat messages stored twice').toEqual([]);
    expect(windows.after.firstTryFailures, 'first-try failures after the replicas were back').toBe(0);
    expect(windows.after.clientFailures, 'client-visible failures after the replicas were back').toBe(0);
    expect(report.violations).toEqual([]);
  }, 300_000);
});
