import { screen } from '@testing-library/react';
import type { renderApp } from './render.tsx';
import { examStore, seedExams } from './handlers.ts';
import { signInAs } from './factories.ts';
import { renderApp as render } from './render.tsx';

type User = ReturnType<typeof renderApp>['user'];

/** The new-exam editor, signed in, with a title typed. */
export async function openNewExam(title: string) {
  seedExams();
  signInAs();
  const view = render('/creator/new-exam');
  await view.user.type(await screen.findByLabelText('Exam Title'), title);
  return view;
}

/** Picks a type in "More question types" and adds a question of it. */
export async function addQuestionOfType(user: User, typeName: string) {
  await user.click(screen.getByRole('combobox', { name: 'More question types' }));
  await user.click(await screen.findByRole('option', { name: typeName }));
  await user.click(screen.getByRole('button', { name: 'Add question' }));
}

export const saveDraft = (user: User) => user.click(screen.getByRole('button', { name: 'Save as Draft' }));

/** The questions of the last exam body the editor sent. */
export const lastQuestions = () =>
  (examStore.writes.at(-1)?.body as { questions: Array<Record<string, unknown>> }).questions;
