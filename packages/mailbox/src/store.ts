import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';

export type MessageSummary = { id: string; from: string; to: string[]; subject: string; date: string };
export type Message = MessageSummary & { text: string; html: string | null };

const ID = /^[\w-]{1,100}$/;

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address ?? ''));

/**
 * Received mail as .eml files in one folder (DATA_DIR/mailbox), so any process on the machine (a test, a
 * script) can read them as well as this server. A file's name without `.eml` is the message's id; names
 * start with the receipt time, so sorting them sorts the mail.
 */
export function createMessageStore(dir: string) {
  async function parse(id: string): Promise<Message | undefined> {
    if (!ID.test(id)) return undefined;
    const raw = await readFile(join(dir, `${id}.eml`)).catch(() => undefined);
    if (!raw) return undefined;
    const mail = await simpleParser(raw);
    return {
      id,
      from: addresses(mail.from)[0] ?? '',
      to: addresses(mail.to),
      subject: mail.subject ?? '',
      date: (mail.date ?? new Date(0)).toISOString(),
      text: mail.text ?? '',
      html: typeof mail.html === 'string' ? mail.html : null,
    };
  }

  return {
    dir,
    async save(raw: Buffer): Promise<string> {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
      await writeFile(join(dir, `${id}.eml`), raw, { mode: 0o600 });
      return id;
    },
    /** Newest first; with `to`, only mail addressed to it (compared without case). */
    async list(filter: { to?: string } = {}): Promise<MessageSummary[]> {
      const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'));
      const ids = names
        .map((n) => n.slice(0, -4))
        .sort()
        .reverse();
      const messages = (await Promise.all(ids.map(parse))).filter((m): m is Message => m !== undefined);
      const to = filter.to?.toLowerCase();
      return messages
        .filter((m) => !to || m.to.some((a) => a.toLowerCase() === to))
        .map(({ text: _text, html: _html, ...summary }) => summary);
    },
    find: parse,
  };
}
export type MessageStore = ReturnType<typeof createMessageStore>;
