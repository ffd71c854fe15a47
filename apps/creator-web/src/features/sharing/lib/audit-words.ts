import type { AuditEvent } from '@exam/domain/roles';
import type { TFunction } from 'i18next';

const isRole = (value: unknown): value is 'owner' | 'editor' | 'grader' | 'proctor' | 'viewer' =>
  typeof value === 'string' && ['owner', 'editor', 'grader', 'proctor', 'viewer'].includes(value);

/** What the event did, in the reader's words ("Changed a role"). */
export function actionWords(t: TFunction<'sharing'>, action: AuditEvent['action']): string {
  return t(`actions.${action}` as 'actions.exam.created');
}

/**
 * The event's small facts in plain words ("grader → editor", "changed: title, questions", "now live"); facts the
 * app does not know by name read as "name: value", so a new kind of fact still shows.
 */
export function detailWords(t: TFunction<'sharing'>, event: Pick<AuditEvent, 'detail'>): string {
  const { role, from, to, mayRelease, pending, fields, isLive, title, ...rest } = event.detail;
  const words: string[] = [];
  if (isRole(from) && isRole(to))
    words.push(t('details.roleChange', { from: t(`roles.${from}`), to: t(`roles.${to}`) }));
  else if (isRole(role)) words.push(t('details.role', { role: t(`roles.${role}`) }));
  if (mayRelease === true) words.push(t('details.mayRelease'));
  if (pending === true) words.push(t('details.pending'));
  if (Array.isArray(fields) && fields.length > 0) words.push(t('details.fields', { fields: fields.join(', ') }));
  if (typeof isLive === 'boolean') words.push(isLive ? t('details.nowLive') : t('details.nowOffline'));
  if (typeof title === 'string') words.push(t('details.title', { title }));
  for (const [key, value] of Object.entries(rest)) {
    if (value === null || value === undefined) continue;
    words.push(t('details.other', { key, value: typeof value === 'object' ? JSON.stringify(value) : String(value) }));
  }
  return words.join(' · ');
}
