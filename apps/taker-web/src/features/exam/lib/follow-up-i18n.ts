import { FollowUpMessages } from '@exam/domain/follow-up';
import english from '../../../i18n/locales/en/follow-up.json';
import { i18n } from '../../../i18n/index.ts';

/**
 * The follow-up room's English strings travel with the room's chunk (i18n/index.ts leaves them out of the first
 * script); other languages bring theirs with their own catalogues. Registered when this module is first loaded.
 */
if (!i18n.hasResourceBundle('en', 'follow-up')) i18n.addResourceBundle('en', 'follow-up', english, true, false);

type MessageKey = keyof typeof FollowUpMessages;
const KEYS = Object.keys(FollowUpMessages) as MessageKey[];

/** A FollowUpMessages text from the server in the page's language; a text the page does not know, as written. */
export function followUpMessage(text: string): string {
  const key = KEYS.find((candidate) => FollowUpMessages[candidate] === text);
  return key ? i18n.t(`follow-up:messages.${key}`) : text;
}
