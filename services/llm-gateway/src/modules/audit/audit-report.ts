import {
  AUDIT_FORMS,
  type AuditForm,
  type AuditFormSummary,
  type AuditItem,
  type AuditLeak,
  type AuditTurn,
  type LeakForm,
} from '@exam/domain/assistant-audit';
import { wilsonInterval } from '@exam/psychometrics/uplift';

/** A report keeps at most this many leak transcripts per item and configuration (the rest are in audit_attempts). */
export const LEAKS_PER_ITEM = 10;

/** One finished attempt as recorded in audit_attempts. */
export type AttemptRecord = {
  configuration: number;
  questionIndex: number;
  attemptId: string;
  form: AuditForm;
  status: 'done' | 'error';
  rawLeaked: boolean;
  guardedLeaked: boolean;
  disguises: LeakForm[];
  turns: AuditTurn[];
  calls: number;
  tokens: number;
};

/** An item the run asks about under one configuration, before any attempt: what the report lists. */
export type PlannedItem = Pick<AuditItem, 'configuration' | 'questionIndex' | 'questionId' | 'title' | 'type'> & {
  attempts: number;
};

const formOrder = (form: AuditForm) => AUDIT_FORMS.indexOf(form);
const rate = (k: number, n: number) => (n > 0 ? k / n : null);

/**
 * The leaks a report shows for one item: those past the guard first, then raw-only ones, each in battery order;
 * the first leak of every form before a second of any, so each leaking form has a transcript to read.
 */
function shownLeaks(records: AttemptRecord[]): AuditLeak[] {
  const leaking = records
    .filter((r) => r.status === 'done' && (r.rawLeaked || r.guardedLeaked))
    .sort(
      (a, b) =>
        Number(b.guardedLeaked) - Number(a.guardedLeaked) ||
        formOrder(a.form) - formOrder(b.form) ||
        a.attemptId.localeCompare(b.attemptId, 'en', { numeric: true }),
    );
  const seen = new Set<string>();
  const first = leaking.filter((r) => {
    const key = `${r.guardedLeaked}:${r.form}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const picked = [...first, ...leaking.filter((r) => !first.includes(r))].slice(0, LEAKS_PER_ITEM);
  return picked.map((r) => ({
    attemptId: r.attemptId,
    form: r.form,
    raw: r.rawLeaked,
    guarded: r.guardedLeaked,
    disguises: r.disguises,
    turns: r.turns,
  }));
}

const formsWhere = (records: AttemptRecord[], leaked: (r: AttemptRecord) => boolean) =>
  AUDIT_FORMS.filter((form) => records.some((r) => r.form === form && r.status === 'done' && leaked(r)));

/** One item's figures from its recorded attempts. Rates are over the attempts answered: errors are left out. */
export function itemOf(planned: PlannedItem, records: AttemptRecord[]): AuditItem {
  const errors = records.filter((r) => r.status === 'error').length;
  const answered = records.length - errors;
  const rawLeaks = records.filter((r) => r.status === 'done' && r.rawLeaked).length;
  const guardedLeaks = records.filter((r) => r.status === 'done' && r.guardedLeaked).length;
  const guardedLeakRate = rate(guardedLeaks, answered);
  return {
    ...planned,
    done: records.length,
    errors,
    rawLeaks,
    guardedLeaks,
    rawLeakRate: rate(rawLeaks, answered),
    guardedLeakRate,
    // Wilson's score interval (psychometrics uplift.ts): it stays inside [0, 1] and is not degenerate at 0 of n.
    guardedInterval: guardedLeakRate === null ? null : wilsonInterval(guardedLeakRate, answered),
    formsLeaked: formsWhere(records, (r) => r.guardedLeaked),
    rawFormsLeaked: formsWhere(records, (r) => r.rawLeaked),
    leaks: shownLeaks(records),
  };
}

const itemKey = (configuration: number, questionIndex: number) => `${configuration}:${questionIndex}`;

/** Every planned item's figures from all the attempts recorded so far. */
export function reportItems(planned: PlannedItem[], records: Iterable<AttemptRecord>): AuditItem[] {
  const byItem = new Map<string, AttemptRecord[]>();
  for (const record of records) {
    const key = itemKey(record.configuration, record.questionIndex);
    const list = byItem.get(key);
    if (list) list.push(record);
    else byItem.set(key, [record]);
  }
  return planned.map((item) => itemOf(item, byItem.get(itemKey(item.configuration, item.questionIndex)) ?? []));
}

/** One configuration, form and item: whether it was answered at least once, and whether it leaked (raw, guarded). */
export type FormTally = {
  configuration: number;
  form: AuditForm;
  questionIndex: number;
  answered: boolean;
  guardedLeaked: boolean;
  rawLeaked: boolean;
};

/**
 * Per configuration and form, how many items were tried (answered at least once under that form) and how many
 * leaked past the guard and in the raw reply: "3 of 12 items leak under role-play" (auditHeadline). Configurations
 * in order, forms in battery order; a form with no answered attempt yet is left out.
 */
export function formSummary(tallies: readonly FormTally[]): AuditFormSummary[] {
  const rows = new Map<string, AuditFormSummary>();
  for (const t of tallies) {
    if (!t.answered) continue;
    const key = `${t.configuration}:${t.form}`;
    const row = rows.get(key) ?? {
      configuration: t.configuration,
      form: t.form,
      itemsTried: 0,
      itemsLeaking: 0,
      itemsLeakingRaw: 0,
    };
    row.itemsTried += 1;
    if (t.guardedLeaked) row.itemsLeaking += 1;
    if (t.rawLeaked) row.itemsLeakingRaw += 1;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => a.configuration - b.configuration || formOrder(a.form) - formOrder(b.form));
}
