import { describe, expect, it } from 'vitest';
import { escapeHtml, examFacts, mailInstant, type MailExam } from './roster-mails.ts';

const exam = (overrides: Partial<MailExam> = {}): MailExam => ({
  id: 'e1',
  title: 'Quiz',
  timerEnabled: true,
  timerMinutes: 1,
  fullScreenEnabled: false,
  opensAt: null,
  closesAt: null,
  attemptsAllowed: 1,
  practice: false,
  access: 'link',
  rosterAdmission: null,
  codingWorkspace: { enabled: false, saveFilesInResults: true, workspaceType: 'vscode', allowPackageRegistries: false },
  aiSettings: { enabled: false } as MailExam['aiSettings'],
  sections: [],
  ...overrides,
});
const fact = (e: MailExam, label: string) => examFacts(e).find((f) => f.label === label)?.value;

describe('the facts an invitation states', () => {
  it('says one minute, one attempt, and leaves out the workspace and opening time when there are none', () => {
    expect(fact(exam(), 'Duration')).toMatch(/^1 minute, counted/);
    expect(fact(exam(), 'Attempts')).toBe('You have one attempt.');
    expect(fact(exam(), 'Workspace')).toBeUndefined();
    expect(fact(exam(), 'Opens')).toBeUndefined();
  });

  it('names the workspace and says where the assistant answers when sections differ', () => {
    const sections = [
      { title: 'A', assistant: false, timeLimitMinutes: 20 },
      { title: 'B', assistant: true, timeLimitMinutes: null },
    ] as MailExam['sections'];
    const e = exam({
      codingWorkspace: {
        enabled: true,
        saveFilesInResults: true,
        workspaceType: 'r-studio',
        allowPackageRegistries: false,
      },
      aiSettings: { enabled: true } as MailExam['aiSettings'],
      sections,
    });
    expect(fact(e, 'Workspace')).toContain('R Studio workspace');
    expect(fact(e, 'AI assistant')).toMatch(/^Available in some sections only/);
    expect(fact(e, 'Duration')).toContain('some sections have a time limit of their own');
    expect(fact(exam({ aiSettings: { enabled: true } as MailExam['aiSettings'] }), 'AI assistant')).toMatch(
      /^Available during the exam/,
    );
  });

  it('writes instants in UTC and says so', () => {
    expect(mailInstant('2030-01-02T23:45:00+02:00')).toBe('Wednesday 2030-01-02 at 21:45 UTC');
  });

  it('escapes every character HTML gives meaning to', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
