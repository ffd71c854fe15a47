import { AttemptMessages, DEFAULT_UPLOAD_MAX_BYTES, fileTooLargeMessage } from '@exam/domain/attempt';
import { ResumeMessages } from '@exam/domain/attempt-binding';
import { WindowMessages } from '@exam/domain/cohort';
import { EndedByExaminerMessage } from '@exam/domain/live';
import { PlantedErrorMessages } from '@exam/domain/planted-errors';
import { SectionMessages } from '@exam/domain/sections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { i18n } from './index.ts';
import { translateServerMessage } from './server-messages.ts';

const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe('translateServerMessage', () => {
  it("keeps the domain's English text word for word in English", () => {
    for (const message of [
      WindowMessages.closed,
      ResumeMessages.required,
      ResumeMessages.tooMany(30),
      AttemptMessages.expired,
      EndedByExaminerMessage,
      fileTooLargeMessage(DEFAULT_UPLOAD_MAX_BYTES),
      SectionMessages.locked,
      SectionMessages.notReached,
      SectionMessages.assistantOff,
      SectionMessages.staleSection,
    ]) {
      expect(translateServerMessage(message)).toBe(message);
    }
  });

  it('says the known messages in Spanish, with the numbers and sizes they carry', async () => {
    await i18n.changeLanguage('es');
    expect(translateServerMessage(WindowMessages.noAttemptsLeft)).toBe(
      'Has usado todos los intentos que permite este examen.',
    );
    expect(translateServerMessage(ResumeMessages.tooMany(30))).toBe(
      'Demasiados códigos incorrectos desde tu red. Inténtalo de nuevo dentro de 30 segundos o pide a tu examinador un código de desbloqueo.',
    );
    expect(translateServerMessage(ResumeMessages.startsPerExam(1))).toBe(
      'Demasiados candidatos están iniciando este examen a la vez. Espera 1 segundo e inténtalo de nuevo.',
    );
    expect(translateServerMessage(fileTooLargeMessage(5 * 1024 * 1024))).toBe(
      'El archivo es demasiado grande. El tamaño máximo es 5 MB.',
    );
    expect(translateServerMessage(WindowMessages.notYetOpen('2030-03-04T00:30:00.000Z'))).toBe(
      'Este examen se abre el lunes, 4 de marzo de 2030, 9:30 (Asia/Tokyo, UTC+09:00).',
    );
  });

  it('shows a message it does not know as the server wrote it', async () => {
    await i18n.changeLanguage('es');
    expect(translateServerMessage('Something new from a service')).toBe('Something new from a service');
    expect(translateServerMessage(`${WindowMessages.closed} And more.`)).toBe(`${WindowMessages.closed} And more.`);
  });

  it("has the domain's English text word for word for the sections and the planted-error disclosure", async () => {
    await i18n.changeLanguage('en');
    expect(i18n.t('room:sections.locked')).toBe(SectionMessages.locked);
    expect(i18n.t('room:sections.timeUp')).toBe(SectionMessages.timeUp);
    expect(i18n.t('room:sections.advanceConfirm')).toBe(SectionMessages.advanceConfirm);
    expect(i18n.t('assistant:sectionOff')).toBe(SectionMessages.assistantOff);
    expect(i18n.t('common:plantedErrors.disclosure')).toBe(PlantedErrorMessages.disclosure);
  });
});
