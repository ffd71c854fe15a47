import { expectAccessible } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { PASSWORD, publishExam, question, registerCreator } from './support/api.ts';
import { mailTo } from './support/mailbox.ts';
import { E2E } from './support/env.ts';
import { examUrl } from './support/taker.ts';
import { expectToast } from './support/ui.ts';

const QUESTIONS = [question.mcq('Capital of France', ['Berlin', 'Paris'], 'Paris')];

test('a creator imports a roster of three from CSV and invites them, one with ×1.5 time; a mailed link fills the candidate’s identity, and her briefing shows her time', async ({
  page,
  request,
}) => {
  const tag = Date.now().toString(36);
  const people = [
    { name: 'Ada Lovelace', id: 'S-1', email: `ada-${tag}@e2e.test` },
    { name: 'Grace Hopper', id: 'S-2', email: `grace-${tag}@e2e.test` },
    { name: 'Alan Turing', id: 'S-3', email: `alan-${tag}@e2e.test` },
  ];
  const creator = await registerCreator(request, 'roster');
  const exam = await publishExam(request, creator.token, {
    title: 'Roster Journey',
    access: 'roster',
    timerEnabled: true,
    timerMinutes: 60,
    questions: QUESTIONS,
  });

  await test.step('the creator opens the exam’s roster from the dashboard', async () => {
    await page.goto('/creator/auth');
    await page.getByLabel('Email Address').fill(creator.user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/creator\/dashboard$/);
    await page.getByRole('table', { name: 'Published Exams' }).getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Roster & invitations' }).click();
    await expect(page).toHaveURL(new RegExp(`/creator/exam-roster/${exam.id}$`));
    await expect(page.getByText('Only candidates on this roster may start.')).toBeVisible();
    await expectAccessible(page, 'empty roster page');
  });

  await test.step('a CSV with a bad row is refused with the row named, and nothing is imported', async () => {
    await page
      .getByLabel('Roster CSV')
      .fill('name,candidate id,email\nAda Lovelace,S-1,ada@e2e.test\nNo Id,,x@e2e.test');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    await expect(page.getByRole('alert')).toContainText('Row 3: Candidate ID is required');
    await expect(page.getByText('No candidates yet')).toBeVisible();
  });

  await test.step('the CSV file of three is imported', async () => {
    const csv = ['Email,Name,Candidate ID', ...people.map((p) => `${p.email},${p.name},${p.id}`)].join('\n');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'roster.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expectToast(page, 'Imported 3 candidates');
    const rows = page.getByRole('table', { name: 'Roster' }).getByRole('row');
    await expect(rows).toHaveCount(4);
    for (const p of people) await expect(rows.filter({ hasText: p.name })).toContainText('Not invited');
    await expectAccessible(page, 'roster of three');
  });

  const message = 'Bring your student card.\n<script>alert(1)</script> Room 4B';
  await test.step('Invite All opens a preview with a message box; nothing goes out before the confirmation', async () => {
    await page.getByRole('button', { name: 'Invite All' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send invitations' });
    await expect(dialog.getByText('3 candidates will get this mail.')).toBeVisible();
    await expect(dialog.getByText('As Ada Lovelace (S-1) will see it')).toBeVisible();
    await expect(dialog.getByTestId('invitation-subject')).toHaveText('Invitation: Roster Journey');
    await dialog.getByLabel('Personal message (optional)').fill(message);
    await dialog.getByText('Plain-text version').click();
    await expect(dialog.getByTestId('invitation-text')).toContainText('<script>alert(1)</script> Room 4B');
    await expect(dialog.getByTestId('invitation-text')).toContainText('Duration: 60 minutes');
    // The HTML part, in its sandbox, shows the message as text: the script is not an element there.
    const frame = page.frameLocator('iframe[title="Invitation mail as formatted"]');
    await expect(frame.getByText('<script>alert(1)</script> Room 4B')).toBeVisible();
    await expect(frame.locator('script')).toHaveCount(0);
    await expectAccessible(page, 'invitation dialog');
    const res = await request.get(`${E2E.mailboxOrigin}/api/messages?to=${encodeURIComponent(people[0]!.email)}`);
    expect(((await res.json()) as { messages: unknown[] }).messages).toEqual([]);
  });

  await test.step('Send 3 invitations: each arrives with the message, duration and rules, as text and HTML', async () => {
    await page.getByRole('button', { name: 'Send 3 invitations' }).click();
    await expectToast(page, 'Queued 3 invitations');
    const rows = page.getByRole('table', { name: 'Roster' }).getByRole('row');
    for (const p of people) await expect(rows.filter({ hasText: p.name })).toContainText('Invited');
    for (const p of people) {
      const mail = await mailTo(request, p.email, /Invitation: Roster Journey/);
      expect(mail.text).toContain(`Your candidate ID: ${p.id}`);
      expect(mail.text).toContain('Bring your student card.');
      expect(mail.text).toContain('Duration: 60 minutes, counted from when you press Start Exam');
      expect(mail.text).toContain('You have one attempt.');
      expect(mail.text).toContain('Only this link lets you in');
      expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Room 4B');
      expect(mail.html).not.toMatch(/<script/i);
    }
  });

  await test.step('inviting someone again says so before sending', async () => {
    await page.getByRole('checkbox', { name: 'Select Alan Turing' }).check();
    await page.getByRole('button', { name: 'Invite Selected (1)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send invitations' });
    await expect(dialog.getByText('1 of them was invited before: their earlier link stops working.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('checkbox', { name: 'Select Alan Turing' }).uncheck();
  });

  await test.step('sending invitations makes the personal link the only way in, and the roster page says so', async () => {
    await expect(page.getByText('Only candidates with their personal invitation link can start')).toBeVisible();
    await expect(page.getByRole('radio', { name: /Personal invitation link required/ })).toBeChecked();
  });

  await test.step('someone who types a roster candidate ID without the link is refused, as is a stranger', async () => {
    await page.goto(examUrl(exam.id));
    await expect(page).toHaveURL(/\/taker\/credentials$/);
    await expect(page.getByTestId('roster-notice')).toContainText('Only invited candidates may start this exam');
    await expectAccessible(page, 'credentials page of a roster exam');
    for (const [name, id] of [
      ['Mallory', 'S-99'],
      ['Ada Lovelace', 'S-1'],
    ] as const) {
      await page.getByLabel('Full Name').fill(name);
      await page.getByLabel('Candidate ID').fill(id);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expectToast(page, /can only be started from your personal invitation link/);
      await expect(page.getByLabel('Candidate ID')).toHaveValue(id);
    }
    const typed = await request.post(`${E2E.takerOrigin}/api/attempts`, {
      data: { examId: exam.id, name: 'Ada Lovelace', studentId: 'S-1' },
    });
    expect(typed.status()).toBe(403);
    expect((await typed.json()).error.message).toContain('personal invitation link');
    // Nothing was stored for S-1: with her own link Ada starts a first attempt (no resume asked for).
    const adaMail = await mailTo(request, people[0]!.email, /Invitation/);
    const inviteToken = /invite=([\w-]+)/.exec(adaMail.text)?.[1];
    const own = await request.post(`${E2E.takerOrigin}/api/attempts`, {
      data: { examId: exam.id, name: 'Ada Lovelace', studentId: 'S-1', inviteToken },
    });
    expect(own.status()).toBe(201);
    expect(await own.json()).toMatchObject({ resumed: false, resumeCode: expect.any(String) });
  });

  await test.step('Grace, on the roster, gets ×1.5 time from the exam’s accommodations', async () => {
    const response = await request.put(`${E2E.creatorOrigin}/api/exams/${exam.id}/overrides/S-2`, {
      headers: { authorization: `Bearer ${creator.token}` },
      data: { timeFactor: 1.5 },
    });
    expect(response.status()).toBe(200);
  });

  await test.step('Grace opens her link: her name and ID are filled and locked, and she starts', async () => {
    const mail = await mailTo(request, people[1]!.email, /Invitation/);
    const link = new RegExp(`${E2E.takerOrigin}/exam/${exam.id}\\?invite=[\\w-]+`).exec(mail.text)?.[0];
    expect(link, 'a personal link in the invitation').toBeTruthy();
    await page.goto(link!);
    await expect(page).toHaveURL(/\/taker\/credentials$/);
    await expect(page.getByLabel('Full Name')).toHaveValue('Grace Hopper');
    await expect(page.getByLabel('Candidate ID')).toHaveValue('S-2');
    await expect(page.getByLabel('Full Name')).toHaveAttribute('readonly', '');
    await expect(page.getByTestId('roster-notice')).toContainText('Your invitation filled in your name');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('briefing-duration')).toHaveText('90 minutes (60 + extra time)');
    await expectAccessible(page, 'briefing with extra time');
    await page.getByRole('button', { name: 'Start Exam' }).click();
    await expect(page).toHaveURL(new RegExp(`/exam/${exam.id}$`));
    await expect(page.getByTestId('answered-count')).toBeVisible();
  });
});

test('an access-code exam refuses a wrong code on its field and starts with the right one; an invitation’s link needs no code', async ({
  page,
  browser,
  request,
}) => {
  const creator = await registerCreator(request, 'code');
  const exam = await publishExam(request, creator.token, {
    title: 'Code Journey',
    access: 'code',
    accessCode: 'open-sesame-42',
    questions: QUESTIONS,
  });
  await page.goto(`${E2E.takerOrigin}/taker/start`);
  await page.getByLabel('Exam URL').fill(examUrl(exam.id));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/taker\/credentials$/);
  await page.getByLabel('Full Name').fill('Ada Lovelace');
  await page.getByLabel('Candidate ID').fill('C-42');
  await page.getByLabel('Access Code').fill('open-says-me');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('The access code is not right')).toBeVisible();
  await expect(page.getByLabel('Access Code')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'credentials page with a refused access code');
  await expect(page).toHaveURL(/\/taker\/credentials$/);

  await page.getByLabel('Access Code').fill('open-sesame-42');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Start Exam' }).click();
  await expect(page).toHaveURL(new RegExp(`/exam/${exam.id}$`));
  await expect(page.getByTestId('answered-count')).toBeVisible();

  await test.step('an invited candidate follows the mail alone: her personal link stands for the code', async () => {
    const email = `lin-${Date.now().toString(36)}@e2e.test`;
    const headers = { authorization: `Bearer ${creator.token}` };
    const added = await request.post(`${E2E.creatorOrigin}/api/exams/${exam.id}/roster`, {
      headers,
      data: { name: 'Lin Wu', candidateId: 'C-7', email },
    });
    expect(added.status()).toBe(201);
    const invited = await request.post(`${E2E.creatorOrigin}/api/exams/${exam.id}/invitations`, { headers, data: {} });
    expect((await invited.json()).invited).toBe(1);
    const mail = await mailTo(request, email, /Invitation: Code Journey/);
    expect(mail.text).toContain('without the exam’s access code');
    expect(mail.text).not.toContain('open-sesame-42');
    const link = new RegExp(`${E2E.takerOrigin}/exam/${exam.id}\\?invite=[\\w-]+`).exec(mail.text)?.[0];
    expect(link, 'a personal link in the invitation').toBeTruthy();
    const candidate = await browser.newPage();
    await candidate.goto(link!);
    await expect(candidate).toHaveURL(/\/taker\/credentials$/);
    await expect(candidate.getByLabel('Full Name')).toHaveValue('Lin Wu');
    await expect(candidate.getByLabel('Access Code')).toHaveCount(0);
    await candidate.getByRole('button', { name: 'Continue' }).click();
    await candidate.getByRole('button', { name: 'Start Exam' }).click();
    await expect(candidate).toHaveURL(new RegExp(`/exam/${exam.id}$`));
    await candidate.close();
  });
});
