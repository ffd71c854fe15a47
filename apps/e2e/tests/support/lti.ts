import { createLmsSimulator, type LmsSimulator } from '@exam/lti-simulator/simulator';
import { Roles, type LaunchSpec, type Placement, type SimUser } from '@exam/lti-simulator/state';
import { expect, type Browser, type Page } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { PASSWORD } from './api.ts';
import { E2E } from './env.ts';

/**
 * The LMS side of the LTI journeys: the simulator (packages/lti-simulator) runs in the spec's process and the
 * browser goes through it as through an LMS. The tool's URLs are the creator app's origin (exam-service's
 * LTI_TOOL_ORIGIN defaults to it; its web server forwards /lti/* to exam-service).
 */
export const TOOL = {
  loginUrl: `${E2E.creatorOrigin}/lti/login`,
  launchUrl: `${E2E.creatorOrigin}/lti/launch`,
  jwksUrl: `${E2E.creatorOrigin}/lti/jwks`,
} as const;

export function startLmsSimulator(): Promise<LmsSimulator> {
  // `localhost`, as the apps' origins are, so the browser sees one site for the LMS's cookies and the tool's.
  return createLmsSimulator({ tool: TOOL, host: 'localhost' });
}

/** The creator registers the simulator on the LMS settings page, where the tool's own URLs are shown. */
export async function registerPlatform(page: Page, sim: LmsSimulator): Promise<void> {
  await page.goto(`${E2E.creatorOrigin}/creator/lti`);
  await expect(page.getByTestId('lti-loginUrl')).toHaveText(TOOL.loginUrl);
  await expect(page.getByTestId('lti-launchUrl')).toHaveText(TOOL.launchUrl);
  await expect(page.getByTestId('lti-jwksUrl')).toHaveText(TOOL.jwksUrl);
  const registration = sim.registration();
  await page.getByLabel('Name').fill(registration.name);
  await page.getByLabel('Issuer (platform ID)').fill(registration.issuer);
  await page.getByLabel('Client ID').fill(registration.clientId);
  await page.getByLabel('Authorization (OIDC auth) URL').fill(registration.authLoginUrl);
  await page.getByLabel('Access token URL').fill(registration.authTokenUrl);
  await page.getByLabel('Platform keyset URL (JWKS)').fill(registration.jwksUrl);
  await page.getByLabel('Deployment IDs').fill(registration.deploymentIds.join('\n'));
  await page.getByRole('button', { name: 'Register platform' }).click();
  await expect(page.getByRole('list', { name: 'Registered platforms' })).toContainText(registration.clientId);
  await expectAccessible(page, 'LMS settings page');
}

/**
 * An instructor opens the LMS's "add activity" (a deep-linking request) in a browser of their own: not linked yet,
 * they sign in with their creator account, which links it, pick the exam, and land back in the LMS. Answers the
 * placement the LMS made from the response.
 */
export async function deepLinkExam(
  browser: Browser,
  sim: LmsSimulator,
  opts: { instructor: SimUser; creatorEmail: string; examTitle: string; data?: string },
): Promise<Placement> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const launch: LaunchSpec = {
      user: opts.instructor,
      roles: [Roles.instructor],
      messageType: 'LtiDeepLinkingRequest',
      deepLinking: { data: opts.data ?? 'deep-link-data' },
    };
    const before = sim.deepLinkResponses.length;
    await page.goto(sim.launchUrl(launch));
    await expect(page.getByRole('heading', { name: 'Link your LMS account' })).toBeVisible();
    await expectAccessible(page, 'LMS account linking page');
    await page.getByLabel('Email Address').fill(opts.creatorEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Choose an exam for your LMS' })).toBeVisible();
    await expectAccessible(page, 'deep-linking picker');
    await page.getByRole('button', { name: `Choose: ${opts.examTitle}` }).click();
    // Back in the LMS: it checked the signed response against the tool's JWKS and added the activity.
    await expect(page.getByRole('heading', { name: 'Deep link received' })).toBeVisible();
    expect(sim.deepLinkResponses.length).toBe(before + 1);
    const response = sim.deepLinkResponses.at(-1)!;
    if (!response.ok) throw new Error(`the LMS refused the deep-linking response: ${response.error}`);
    expect(response.placement).toBeDefined();
    return response.placement!;
  } finally {
    await context.close();
  }
}

/** A learner opens the activity in the LMS: a resource-link launch of the placement, in a browser of their own. */
export async function launchLearner(
  browser: Browser,
  sim: LmsSimulator,
  placement: Placement,
  learner: SimUser,
): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(
    sim.launchUrl({
      user: learner,
      roles: [Roles.learner],
      resourceLink: { id: placement.resourceLinkId, title: placement.title },
      custom: placement.custom,
      targetLinkUri: placement.url,
    }),
  );
  return page;
}
