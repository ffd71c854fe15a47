import { CollaborationMessages, COLLABORATION_SCALES, type CollaborationProfile } from '@exam/domain/collaboration';
import { SuggestionMessages } from '@exam/domain/question-grading';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { makeCollaborationProfile, makeJudgement } from '../../../testing/collaboration-factories.ts';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultService } from '../../../testing/fake-result-service.ts';
import { errorBody } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { makeResultDetail } from '../../../testing/result-factories.ts';
import { server } from '../../../testing/server.ts';

/** The result page with its profile served as `profile`; records the suggestion requests and the levels set. */
function serve(profile: (resultId: string) => CollaborationProfile, suggest?: () => Response) {
  const detail = makeResultDetail();
  const levels: Array<{ dimension: string; body: unknown }> = [];
  let suggestions = 0;
  let current = profile(detail.id);
  server.use(
    ...fakeResultService(detail).handlers,
    http.get('*/api/results/:id/collaboration', () => HttpResponse.json(current)),
    http.post('*/api/results/:id/collaboration/suggestions', () => {
      suggestions++;
      if (suggest) return suggest();
      current = makeCollaborationProfile(detail.id, {
        framing: { reason: CollaborationMessages.undecided, judgement: makeJudgement() },
        verification: {
          reason: CollaborationMessages.undecided,
          judgement: makeJudgement({ suggestedLevel: 3, quotes: [], rationale: 'Runs the tests after replies.' }),
        },
      });
      return HttpResponse.json(current, { status: 201 });
    }),
    http.put('*/api/results/:id/collaboration/:dimension', async ({ params, request }) => {
      const body = (await request.json()) as { level: number };
      levels.push({ dimension: String(params.dimension), body });
      const judgement = current.dimensions.find((d) => d.dimension === params.dimension)!.judgement!;
      return HttpResponse.json({
        ...judgement,
        finalLevel: body.level,
        status: body.level === judgement.suggestedLevel ? 'accepted' : 'edited',
        decidedBy: 'grader@example.test',
        decidedAt: '2031-01-01T11:00:00.000Z',
      });
    }),
  );
  return { detail, levels, suggestions: () => suggestions };
}

async function openPanel(resultId: string) {
  signInAs();
  const view = renderApp(`/creator/result/${resultId}`);
  const panel = await screen.findByRole('region', { name: 'Collaboration profile' });
  await within(panel).findByRole('heading', { name: 'Framing' });
  const section = (name: string) => within(panel).getByRole('region', { name });
  return { ...view, panel, section };
}

describe('the collaboration profile on the result page', () => {
  it('shows each dimension with its level, scale, basis, figures, evidence and why a level is missing', async () => {
    const { detail } = serve((id) => makeCollaborationProfile(id, {}, ['ability']));
    const { panel, section } = await openPanel(detail.id);
    const integration = section('Integration');
    expect(integration).toHaveTextContent('Level 1 of 4');
    expect(integration).toHaveTextContent(COLLABORATION_SCALES.integration[1]);
    expect(integration).toHaveTextContent('Measured from the attempt');
    const figures = within(integration).getByLabelText('Figures of Integration');
    expect(figures).toHaveTextContent('Share kept unchanged94%');
    expect(figures).toHaveTextContent('Characters taken from the assistant94');
    const framing = section('Framing');
    expect(framing).toHaveTextContent('No level');
    expect(framing).toHaveTextContent(CollaborationMessages.suggestFirst);
    expect(within(framing).getByRole('list', { name: 'Evidence for Framing' })).toHaveTextContent(
      'Pasted the text of question 1',
    );
    expect(section('Verification')).toHaveTextContent('Replies followed by a test run within 5 minutes67%');
    expect(section('Independence')).toHaveTextContent('Gap, aided − unaided (logits)—');
    expect(panel).toHaveTextContent('The insights report could not be computed just now');
  });

  it('asks for a suggestion, shows it with its quotes, and accepts it or sets another level from the keyboard', async () => {
    const { detail, levels, suggestions } = serve((id) => makeCollaborationProfile(id));
    const { user, section } = await openPanel(detail.id);
    await user.click(within(section('Framing')).getByRole('button', { name: 'Suggest with AI' }));
    expect(await within(section('Framing')).findByText('AI suggestion: level 1')).toBeInTheDocument();
    expect(suggestions()).toBe(1);
    const framing = section('Framing');
    expect(within(framing).getByRole('list', { name: 'Quotes from the candidate' })).toHaveTextContent(
      'just give me the code',
    );
    expect(framing).toHaveTextContent('Waiting for your decision');
    const choices = within(framing).getByRole('group', { name: 'Your level for Framing' });
    expect(within(choices).getByRole('radio', { name: `1 — ${COLLABORATION_SCALES.framing[1]}` })).toBeChecked();

    await user.click(within(framing).getByRole('button', { name: 'Accept level 1' }));
    await waitFor(() => expect(levels).toEqual([{ dimension: 'framing', body: { level: 1 } }]));
    expect(await within(section('Framing')).findByText('Accepted')).toBeInTheDocument();
    expect(section('Framing')).toHaveTextContent('Level 1 of 4');

    // Verification: suggested 3; the grader moves to 4 with the arrow key and sets it.
    const verification = section('Verification');
    within(verification)
      .getByRole('radio', { name: `3 — ${COLLABORATION_SCALES.verification[3]}` })
      .focus();
    await user.keyboard('{ArrowDown}');
    expect(
      within(verification).getByRole('radio', { name: `4 — ${COLLABORATION_SCALES.verification[4]}` }),
    ).toBeChecked();
    await user.click(within(verification).getByRole('button', { name: 'Set level 4' }));
    await waitFor(() => expect(levels.at(-1)).toEqual({ dimension: 'verification', body: { level: 4 } }));
    expect(await within(section('Verification')).findByText('Changed by the grader')).toBeInTheDocument();
  });

  it.each([
    [409, 'CONFLICT', SuggestionMessages.noProvider],
    [429, 'RATE_LIMITED', SuggestionMessages.budgetExhausted],
    [503, 'UNAVAILABLE', CollaborationMessages.gatewayDown],
  ])('says why a suggestion failed (%i)', async (status, code, message) => {
    const { detail } = serve(
      (id) => makeCollaborationProfile(id),
      () => HttpResponse.json(errorBody(code, message), { status }),
    );
    const { user, section } = await openPanel(detail.id);
    await user.click(within(section('Verification')).getByRole('button', { name: 'Suggest with AI' }));
    expect(await within(section('Verification')).findByRole('alert')).toHaveTextContent(message);
  });

  it('gives the scales the same words as the domain gives the model', () => {
    for (const [dimension, scale] of Object.entries(COLLABORATION_SCALES))
      scale.forEach((text, level) => expect(i18n.t(`collaboration:scale.${dimension}.${level}` as never)).toBe(text));
  });
});
