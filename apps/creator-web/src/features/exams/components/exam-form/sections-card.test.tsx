import { SectionMessages } from '@exam/domain/sections';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../../testing/factories.ts';
import { errorBody, examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';
import { server } from '../../../../testing/server.ts';

type WrittenBody = {
  sections: Array<Record<string, unknown>>;
  questions: Array<Record<string, unknown>>;
};
const lastBody = () => examStore.writes.at(-1)?.body as WrittenBody;

async function chooseSection(user: ReturnType<typeof renderApp>['user'], question: number, name: string) {
  await user.click(screen.getByRole('combobox', { name: `Question ${question} section` }));
  await user.click(await screen.findByRole('option', { name }));
}

describe('exam editor: sections', () => {
  it('adds, names, reorders and removes sections, with each rule, and puts questions in them', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Aided and unaided');
    await user.click(screen.getByRole('button', { name: 'Add Short Answer' }));
    await user.click(screen.getByRole('button', { name: 'Add Short Answer' }));
    // No section select until the exam has a section.
    expect(screen.queryByRole('combobox', { name: 'Question 1 section' })).not.toBeInTheDocument();

    for (let i = 0; i < 3; i++) await user.click(screen.getByRole('button', { name: 'Add section' }));
    await user.type(screen.getByLabelText('Section 1 title'), 'Help');
    await user.type(screen.getByLabelText('Section 2 title'), 'Solo');
    // Every section starts with the assistant; section 2 turns it off and gets its own limit.
    const assistant2 = screen.getByRole('switch', { name: 'Section 2: assistant available' });
    expect(assistant2).toBeChecked();
    await user.click(assistant2);
    await user.type(screen.getByLabelText('Section 2 time limit (minutes)'), '20');
    // The first section took every question when it was added.
    expect(screen.getByRole('combobox', { name: 'Question 1 section' })).toHaveTextContent('Help');
    // Unaided first: section 2 moves up, and the questions stay in the section they were shown in.
    await user.click(screen.getByRole('button', { name: 'Move section 2 up' }));
    expect(screen.getByLabelText('Section 1 title')).toHaveValue('Solo');
    expect(screen.getByRole('switch', { name: 'Section 1: assistant available' })).not.toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Question 1 section' })).toHaveTextContent('Help');
    await user.click(screen.getByRole('button', { name: 'Remove section 3' }));
    expect(screen.queryByLabelText('Section 3 title')).not.toBeInTheDocument();

    await chooseSection(user, 1, 'Solo');
    expect(
      within(screen.getByRole('region', { name: 'Section 2' })).getByText('1 question in the section'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Exam saved as draft')).toBeInTheDocument();
    const body = lastBody();
    expect(body.sections).toEqual([
      expect.objectContaining({ title: 'Solo', assistant: false, timeLimitMinutes: 20 }),
      expect.objectContaining({ title: 'Help', assistant: true, timeLimitMinutes: null }),
    ]);
    // Every question names its section, so a later reorder cannot move it.
    expect(body.questions.map((q) => q.sectionId)).toEqual([body.sections[0]!.id, body.sections[1]!.id]);
  }, 60_000);

  it('sends the questions of a removed section back to the first', async () => {
    const exam = makeExam({
      title: 'Two parts',
      sections: [
        { id: 'a', title: 'A', assistant: false, timeLimitMinutes: null },
        { id: 'b', title: 'B', assistant: true, timeLimitMinutes: null },
      ],
      questions: [
        { id: 'q1', type: 'short-answer', title: 'One', sectionId: 'a' },
        { id: 'q2', type: 'short-answer', title: 'Two', sectionId: 'b' },
      ] as never,
    });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}`);
    expect(await screen.findByRole('combobox', { name: 'Question 2 section' })).toHaveTextContent('B');
    await user.click(screen.getByRole('button', { name: 'Remove section 2' }));
    expect(screen.getByRole('combobox', { name: 'Question 2 section' })).toHaveTextContent('A');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastBody().sections).toEqual([expect.objectContaining({ id: 'a' })]);
    expect(lastBody().questions.map((q) => q.sectionId)).toEqual(['a', 'a']);
  });

  it("checks a section's time limit with the domain's rule and shows the server's issues at their fields", async () => {
    seedExams();
    server.use(
      http.post('*/api/exams', () =>
        HttpResponse.json(
          errorBody('VALIDATION', 'Invalid exam', [
            { path: 'sections.0.id', message: SectionMessages.duplicateSection },
            { path: 'questions.0.sectionId', message: SectionMessages.poolAcrossSections },
          ]),
          { status: 400 },
        ),
      ),
    );
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Checked');
    await user.click(screen.getByRole('button', { name: 'Add Short Answer' }));
    await user.click(screen.getByRole('button', { name: 'Add section' }));
    const limit = screen.getByLabelText('Section 1 time limit (minutes)');
    await user.type(limit, '0');
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('At least 1 minute')).toBeInTheDocument();
    expect(examStore.writes).toHaveLength(0);

    await user.clear(limit);
    await user.type(screen.getByLabelText('Section 1 title'), 'Part one');
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText(SectionMessages.duplicateSection)).toBeInTheDocument();
    expect(screen.getByText(SectionMessages.poolAcrossSections)).toBeInTheDocument();
    expect(screen.getByLabelText('Section 1 title')).toHaveValue('Part one');
  });
});
