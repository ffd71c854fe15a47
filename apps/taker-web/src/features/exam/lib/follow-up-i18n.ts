import english from '../../../i18n/locales/en/follow-up.json';
import { i18n } from '../../../i18n/index.ts';

/**
 * The follow-up room's English strings travel with the room's chunk (i18n/index.ts leaves them out of the first
 * script); other languages bring theirs with their own catalogues. Registered when this module is first loaded.
 */
if (!i18n.hasResourceBundle('en', 'follow-up')) i18n.addResourceBundle('en', 'follow-up', english, true, false);

type MessageKey = keyof typeof english.messages;
const MESSAGES = Object.entries(english.messages) as Array<[MessageKey, string]>;

/**
 * A text results-service sends (packages/domain's FollowUpMessages, which the English catalogue's `messages` repeats
 * word for word: follow-up-i18n.test.ts holds them equal) in the page's language; a text the page does not know, as
 * written. Matched against the catalogue rather than the domain's object so the room adds nothing to the first
 * script the exam page shares with it.
 */
export function followUpMessage(text: string): string {
  const key = MESSAGES.find(([, words]) => words === text)?.[0];
  return key ? i18n.t(`follow-up:messages.${key}`) : text;
}
