import { i18n } from '../i18n/index.ts';

/**
 * How an exam or a question without a title is named on every screen, confirmations included, so a
 * dialog never asks about deleting `""` while the list beside it says "Untitled exam".
 */
export const examName = (title: string): string => title.trim() || i18n.t('untitledExam');
export const questionName = (title: string): string => title.trim() || i18n.t('untitledQuestion');
