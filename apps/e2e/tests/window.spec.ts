import { WindowMessages } from '@exam/domain/cohort';
import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { getExam, registerCreator, updateExam } from './support/api.ts';
import { E2E } from './support/env.ts';
import { countdownSeconds, examUrl, storedAttempt } from './support/taker.ts';
import { expectToast, signInCreator, tableRow } from './support/ui.ts';

/** The creator works in Berlin, the candidate in New York: each reads times in their own zone. */
const CREATOR_ZONE = 'Europe/Berlin';
const CANDIDATE_ZONE = 'America/New_York';

/** What a datetime-local field holds for an instant in a zone: '2026-11-26T09:00'. */
function localInput(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The UTC offset of a zone at an instant, as the page names it ('UTC-05:00'). */
function utcOffset(at: Date, timeZone: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  return name === 'GMT' ? 'UTC+00:00' : (name ?? '').replace('GMT', 'UTC');
}

/**
 * 'This exam opens on Thursday, November 26, 2026 at 3:00 AM (America/New_York, UTC-05:00).' as a pattern:
 * Chromium's ICU may put a narrow no-break space before AM/PM.
 */
function opensOnPattern(at: Date, timeZone: string): RegExp {
  const date = new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'full' }).format(at);
  const time = new Intl.DateTimeFormat('en-US', { timeZone, timeStyle: 'short' }).format(at);
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s/g, '\\s');
  return new RegExp(
    `This exam opens on ${escape(date)} at ${escape(time)} \\(${escape(timeZone)}, ${escape(utcOffset(at, timeZone))}\\)\\.`,
  );
}

test('a candidate before the window sees when it opens and cannot start; with a ×1.5 accommodation and the window moved to now, C-150 gets 1.5× the time', async ({
  browser,
  request,
}) => {
  const creator = await registerCreator(request);
  const creatorContext = await browser.newContext({ timezoneId: CREATOR_ZONE });
  const candidateContext = await browser.newContext({ timezoneId: CANDIDATE_ZONE });
  try {
    const creatorPage = await creatorContext.newPage();
    const candidate = await candidateContext.newPage();
    // Tomorrow at 09:00 in Berlin, as the creator types it.
    const tomorrowNine = `${localInput(new Date(Date.now() + 24 * 3600_000), CREATOR_ZONE).slice(0, 10)}T09:00`;
    let examId = '';

    await test.step('the creator publishes a 60-minute exam that opens tomorrow at 09:00 their time', async () => {
      await signInCreator(creatorPage, creator);
      await creatorPage.goto(`${E2E.creatorOrigin}/creator/new-exam`);
      await creatorPage.getByLabel('Exam Title').fill('Windowed Statistics');
      await creatorPage.getByRole('switch', { name: 'Enable Timer' }).click();
      await creatorPage.getByLabel('Duration (minutes)').fill('60');
      await expect(creatorPage.getByTestId('availability-zone')).toContainText(`Times are in ${CREATOR_ZONE} (UTC+0`);
      await creatorPage.getByLabel('Opens at', { exact: true }).fill(tomorrowNine);
      await creatorPage.getByRole('button', { name: 'Add MCQ' }).click();
      await expectAccessible(creatorPage, 'exam editor with an availability window');
      await creatorPage.getByRole('button', { name: 'Publish Exam' }).click();
      await expect(creatorPage).toHaveURL(/\/creator\/exam-published\/[^/]+$/);
      examId = decodeURIComponent(creatorPage.url().split('/').pop() ?? '');
      await updateExam(request, creator.token, examId, { isLive: true });
      const stored = await getExam(request, creator.token, examId);
      expect(stored.opensAt, 'the window was sent and stored').not.toBeNull();
      expect(localInput(new Date(stored.opensAt ?? ''), CREATOR_ZONE)).toBe(tomorrowNine);
    });

    const opensAt = new Date((await getExam(request, creator.token, examId)).opensAt ?? '');

    await test.step('a candidate opening the link sees when it opens, in their own zone, and cannot start', async () => {
      await candidate.goto(examUrl(examId));
      await expect(candidate).toHaveURL(/\/taker\/credentials$/);
      await expect(candidate.getByTestId('exam-window')).toHaveText(opensOnPattern(opensAt, CANDIDATE_ZONE));
      await expectAccessible(candidate, 'credentials page of an exam not yet open');
      await candidate.getByLabel('Full Name').fill('Early Bird');
      await candidate.getByLabel('Candidate ID').fill('C-149');
      await candidate.getByRole('button', { name: 'Continue' }).click();
      await expect(candidate.getByRole('button', { name: 'Start Exam' })).toBeDisabled();
      await expect(candidate.getByTestId('briefing-refusal')).toHaveText(opensOnPattern(opensAt, CANDIDATE_ZONE));
      await expectAccessible(candidate, 'briefing refusing a start before the window');
      // The server refuses the start too, saying when the exam opens.
      const refused = await request.post(`${E2E.takerOrigin}/api/attempts`, {
        data: { examId, name: 'Early Bird', studentId: 'C-149' },
      });
      expect(refused.status()).toBe(409);
      const message = ((await refused.json()) as { error: { message: string } }).error.message;
      const said = /^This exam opens at (\S+)\.$/.exec(message)?.[1] ?? '';
      expect(message).toBe(WindowMessages.notYetOpen(said));
      expect(Date.parse(said)).toBe(opensAt.getTime());
    });

    await test.step('the creator gives C-150 ×1.5 time on the accommodations page', async () => {
      await creatorPage.goto(`${E2E.creatorOrigin}/creator/dashboard`);
      await tableRow(creatorPage, 'Published Exams', 'Windowed Statistics')
        .getByRole('button', { name: 'More actions' })
        .click();
      await creatorPage.getByRole('menuitem', { name: 'Accommodations' }).click();
      await expect(creatorPage).toHaveURL(new RegExp(`/creator/exam-accommodations/${examId}$`));
      await creatorPage.getByLabel('Candidate ID').fill('C-150');
      await creatorPage.getByLabel('Time factor (×)').fill('1.5');
      await expect(creatorPage.getByTestId('override-duration')).toHaveText('Duration: 60 min → 90 min');
      await creatorPage.getByRole('button', { name: 'Save accommodation' }).click();
      await expectToast(creatorPage, 'Accommodation saved for C-150');
      const row = creatorPage.getByTestId('override-row').filter({ hasText: 'C-150' });
      await expect(row).toContainText('×1.5');
      await expect(row).toContainText('60 min → 90 min');
      await expectAccessible(creatorPage, 'accommodations page');
    });

    await test.step('the creator moves the window to now in the exam form', async () => {
      await creatorPage.getByRole('link', { name: 'Edit exam' }).click();
      const opens = creatorPage.getByLabel('Opens at', { exact: true });
      await expect(opens).toHaveValue(tomorrowNine);
      await opens.fill(localInput(new Date(Date.now() - 60_000), CREATOR_ZONE));
      await creatorPage.getByRole('button', { name: 'Update Published Exam' }).click();
      await expectToast(creatorPage, 'Published exam updated successfully');
      const moved = await getExam(request, creator.token, examId);
      expect(Date.parse(moved.opensAt ?? '')).toBeLessThanOrEqual(Date.now());
    });

    await test.step('C-150 sees 1.5× the duration on the briefing, starts, and the countdown shows the extended time', async () => {
      await candidate.goto(examUrl(examId));
      await expect(candidate).toHaveURL(/\/taker\/credentials$/);
      await candidate.getByLabel('Full Name').fill('Ada Extra');
      await candidate.getByLabel('Candidate ID').fill('C-150');
      await candidate.getByRole('button', { name: 'Continue' }).click();
      await expect(candidate.getByTestId('briefing-duration')).toHaveText('90 minutes (60 + extra time)');
      await expect(candidate.getByTestId('briefing-questions')).toHaveText('1');
      await expect(candidate.getByTestId('briefing-attempts')).toHaveText('0 of 1 used');
      await candidate.getByRole('button', { name: 'Start Exam' }).click();
      await expect(candidate).toHaveURL(new RegExp(`/exam/${examId}$`));
      await expect(candidate.getByRole('timer', { name: 'Time remaining' })).toBeVisible();
      const remaining = await countdownSeconds(candidate);
      expect(remaining).toBeGreaterThan(89 * 60);
      expect(remaining).toBeLessThanOrEqual(90 * 60);
      const attempt = await storedAttempt(candidate, examId);
      const startedAt = await candidate.evaluate(
        (id) =>
          new Promise<string>((resolve, reject) => {
            const open = indexedDB.open('exam-taker');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const read = open.result.transaction('attempts').objectStore('attempts').get(id);
              read.onsuccess = () => {
                open.result.close();
                resolve((read.result as { startedAt: string }).startedAt);
              };
            };
          }),
        examId,
      );
      // The server's deadline: 90 minutes after the start (to the second).
      expect(Math.abs(Date.parse(attempt.deadline ?? '') - Date.parse(startedAt) - 90 * 60_000)).toBeLessThan(1000);
    });
  } finally {
    await creatorContext.close();
    await candidateContext.close();
  }
});
