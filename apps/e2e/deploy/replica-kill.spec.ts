import { execFileSync } from 'node:child_process';
import type { APIRequestContext } from '@playwright/test';
import { getAttempt, getResult, publishExam, question, registerCreator } from '../tests/support/api.ts';
import { expect, test } from '../tests/support/fixtures.ts';
import { enterExam, storedAttempt, submitExam, type StoredAttempt } from '../tests/support/taker.ts';

/**
 * Runs only against the compose deployment (playwright.deploy.config.ts, started by scripts/test-deploy.ts):
 * DEPLOY_COMPOSE_PROJECT names the compose project, DOCKER_HOST its engine. Two replicas of exam-service and
 * results-service sit behind the web servers; one of each is killed (SIGKILL, no graceful close) while a
 * candidate is half-way through, and every answer saved before and after the kill is on the server at the end.
 */
const project = process.env.DEPLOY_COMPOSE_PROJECT ?? '';

function docker(args: string[]): string {
  return execFileSync('docker', args, { encoding: 'utf8' }).trim();
}

/** The running containers of one compose service, oldest first. */
function replicas(service: string): string[] {
  const ids = docker([
    'ps',
    '-q',
    '--filter',
    `label=com.docker.compose.project=${project}`,
    '--filter',
    `label=com.docker.compose.service=${service}`,
  ]);
  return ids ? ids.split('\n').reverse() : [];
}

async function serverAnswers(request: APIRequestContext, attempt: StoredAttempt): Promise<Record<string, string>> {
  const state = await getAttempt(request, attempt.token, attempt.attemptId);
  return Object.fromEntries(Object.entries(state.answers).map(([index, saved]) => [index, saved.answer]));
}

test('a candidate loses nothing when a replica of exam-service and of results-service is killed mid-attempt', async ({
  page,
  request,
}) => {
  expect(project, 'DEPLOY_COMPOSE_PROJECT names the compose project under test').not.toBe('');
  expect(replicas('exam-service')).toHaveLength(2);
  expect(replicas('results-service')).toHaveLength(2);

  const creator = await registerCreator(request, 'deploy');
  const exam = await publishExam(request, creator.token, {
    title: 'Replica Kill Journey',
    questions: [
      question.shortAnswer('First river', ['Nile']),
      question.shortAnswer('Second river', ['Amazon']),
      question.shortAnswer('Third river', ['Danube']),
      question.shortAnswer('Fourth river', ['Rhine']),
    ],
  });
  await enterExam(page, exam.id, { name: 'Grace Hopper', studentId: 'D-1906' });
  const attempt = await storedAttempt(page, exam.id);
  const answered = page.getByTestId('answered-count');

  await test.step('saves two answers while both replicas run', async () => {
    await page.getByLabel('Answer for Q1').fill('Nile');
    await page.getByLabel('Answer for Q2').fill('Amazon');
    await expect(answered).toHaveText('Answered: 2/4');
    await expect.poll(() => serverAnswers(request, attempt)).toEqual({ '0': 'Nile', '1': 'Amazon' });
  });

  const killed: string[] = [];
  await test.step('kills one replica of exam-service and one of results-service', async () => {
    for (const service of ['exam-service', 'results-service']) {
      const [victim] = replicas(service);
      expect(victim, `a running ${service} replica`).toBeTruthy();
      docker(['kill', victim!]);
      killed.push(victim!);
    }
    for (const id of killed) expect(docker(['inspect', '-f', '{{.State.Running}}', id])).toBe('false');
  });

  await test.step('saves two more answers through the surviving replicas; a reload shows all four', async () => {
    await page.getByLabel('Answer for Q3').fill('Danube');
    await page.getByLabel('Answer for Q4').fill('Rhine');
    await expect(answered).toHaveText('Answered: 4/4');
    const all = { '0': 'Nile', '1': 'Amazon', '2': 'Danube', '3': 'Rhine' };
    await expect.poll(() => serverAnswers(request, attempt), { timeout: 60_000 }).toEqual(all);
    await page.reload();
    await expect(answered).toHaveText('Answered: 4/4');
    await expect(page.getByLabel('Answer for Q1')).toHaveValue('Nile');
    await expect(page.getByLabel('Answer for Q4')).toHaveValue('Rhine');
  });

  await test.step('submits, and the creator sees every answer scored', async () => {
    await submitExam(page, { answered: 4, total: 4 });
    await expect(page.getByRole('heading', { name: 'Exam Completed' })).toBeVisible();
    await expect(page.getByTestId('answered-summary')).toHaveText('Questions Answered: 4 of 4');
    expect((await getAttempt(request, attempt.token, attempt.attemptId)).resultId).not.toBeNull();
    const resultId = (await getAttempt(request, attempt.token, attempt.attemptId)).resultId!;
    const result = await getResult(request, creator.token, resultId);
    expect(result.questionAnswers.map((a) => a.answer)).toEqual(['Nile', 'Amazon', 'Danube', 'Rhine']);
    expect(result.answeredCount).toBe(4);
    expect(result.score).toBe(4);
  });
});
