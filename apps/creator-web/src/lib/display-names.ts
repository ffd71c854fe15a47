/**
 * How an exam or a question without a title is named on every screen, confirmations included, so a
 * dialog never asks about deleting `""` while the list beside it says "Untitled exam".
 */
export const examName = (title: string): string => title.trim() || 'Untitled exam';
export const questionName = (title: string): string => title.trim() || 'Untitled question';
