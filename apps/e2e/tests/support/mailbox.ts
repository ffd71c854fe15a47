import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures.ts';
import { E2E } from './env.ts';

export type MailboxMessage = {
  id: string;
  from: string;
  to: string[];
  subject: string;
  date: string;
  text: string;
  /** The HTML part of a multipart mail, null when the mail is plain text only. */
  html: string | null;
};

/**
 * The mail addressed to `to` whose subject matches, read from the embedded mailbox's API (packages/mailbox):
 * the stack runs without SMTP_URL, so the services deliver over SMTP to that receiver, as to a real one.
 */
export async function mailTo(request: APIRequestContext, to: string, subject: RegExp = /./): Promise<MailboxMessage> {
  let found: { id: string } | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`${E2E.mailboxOrigin}/api/messages?to=${encodeURIComponent(to)}`);
        if (!res.ok()) return undefined;
        const { messages } = (await res.json()) as { messages: { id: string; subject: string }[] };
        found = messages.find((m) => subject.test(m.subject));
        return found?.id;
      },
      { message: `a mail to ${to} (${subject}) in the mailbox`, timeout: 30_000 },
    )
    .toBeTruthy();
  const res = await request.get(`${E2E.mailboxOrigin}/api/messages/${found!.id}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as MailboxMessage;
}
