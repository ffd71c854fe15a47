import { FollowUpMessages } from '@exam/domain/follow-up';
import { describe, expect, it } from 'vitest';
import english from '../../../i18n/locales/en/follow-up.json';
import { i18n } from '../../../i18n/index.ts';
import { followUpMessage } from './follow-up-i18n.ts';

describe('followUpMessage', () => {
  it('knows every text results-service sends: the English catalogue repeats FollowUpMessages word for word', () => {
    expect(english.messages).toEqual(FollowUpMessages);
  });

  it('says a skipped note in the page’s language, and an unknown text as the server wrote it', async () => {
    await i18n.changeLanguage('es');
    expect(followUpMessage(FollowUpMessages.skippedNoAssistant)).toBe(
      'Se omitieron las preguntas de seguimiento: el asistente no está configurado para este examen.',
    );
    expect(followUpMessage('The follow-up questions were skipped: a new reason.')).toBe(
      'The follow-up questions were skipped: a new reason.',
    );
    await i18n.changeLanguage('en');
    expect(followUpMessage(FollowUpMessages.skippedNoAssistant)).toBe(FollowUpMessages.skippedNoAssistant);
  });
});
