import type { AuditEvent } from '@exam/domain/roles';
import { i18n } from '../../../i18n/index.ts';

const t = i18n.t.bind(i18n);

const isRole = (value: unknown): value is 'owner' | 'editor' | 'grader' | 'proctor' | 'viewer' =>
  typeof value === 'string' && ['owner', 'editor', 'grader', 'proctor', 'viewer'].includes(value);

/** What the event did, in the reader's words ("Changed a role"). */
export function actionWords(action: AuditEvent['action']): string {
  return t(`sharing:actions.${action}` as 'sharing:actions.exam.created');
}

/**
 * The event's small facts in plain words ("grader → editor", "changed: title, questions", "now live"); facts the
 * app does not know by name read as "name: value", so a new kind of fact still shows.
 */
export function detailWords(event: Pick<AuditEvent, 'detail'>): string {
  const { role, from, to, mayRelease, pending, fields, isLive, title, ...rest } = event.detail;
  const words: string[] = [];
  if (isRole(from) && isRole(to))
    words.push(t('sharing:details.roleChange', { from: t(`sharing:roles.${from}`), to: t(`sharing:roles.${to}`) }));
  else if (isRole(role)) words.push(t('sharing:details.role', { role: t(`sharing:roles.${role}`) }));
  if (mayRelease === true) words.push(t('sharing:details.mayRelease'));
  if (pending === true) words.push(t('sharing:details.pending'));
  if (Array.isArray(fields) && fields.length > 0)
    words.push(t('sharing:details.fields', { fields: fields.join(', ') }));
  if (typeof isLive === 'boolean') words.push(isLive ? t('sharing:details.nowLive') : t('sharing:details.nowOffline'));
  if (typeof title === 'string') words.push(t('sharing:details.title', { title }));
  for (const [key, value] of Object.entries(rest)) {
    if (value === null || value === undefined) continue;
    words.push(
      t('sharing:details.other', { key, value: typeof value === 'object' ? JSON.stringify(value) : String(value) }),
    );
  }
  return words.join(' · ');
}
