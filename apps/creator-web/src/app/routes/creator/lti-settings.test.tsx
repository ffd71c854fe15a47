import { LtiMessages, type LtiPlatform } from '@exam/domain/lti';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const TOOL = {
  loginUrl: 'https://creator.example/lti/login',
  launchUrl: 'https://creator.example/lti/launch',
  deepLinkingUrl: 'https://creator.example/lti/launch',
  jwksUrl: 'https://creator.example/lti/jwks',
};

/** exam-service's platform routes over a list the test can read. */
function servePlatforms(opts: { conflict?: boolean } = {}) {
  const platforms: LtiPlatform[] = [];
  const created: unknown[] = [];
  server.use(
    http.get('*/api/lti/tool-configuration', () => HttpResponse.json(TOOL)),
    http.get('*/api/lti/platforms', () => HttpResponse.json({ platforms })),
    http.post('*/api/lti/platforms', async ({ request }) => {
      const body = (await request.json()) as Omit<LtiPlatform, 'id' | 'createdAt' | 'updatedAt'>;
      created.push(body);
      if (opts.conflict)
        return HttpResponse.json(
          {
            error: {
              code: 'CONFLICT',
              message: LtiMessages.duplicate,
              issues: [{ path: 'clientId', message: LtiMessages.duplicate }],
            },
          },
          { status: 409 },
        );
      const platform = { ...body, id: `p${platforms.length + 1}`, createdAt: 'now', updatedAt: 'now' };
      platforms.push(platform);
      return HttpResponse.json({ platform }, { status: 201 });
    }),
  );
  return { platforms, created };
}

async function fillRegistration(user: ReturnType<typeof renderApp>['user'], overrides: Record<string, string> = {}) {
  const values: Record<string, string> = {
    Name: 'Canvas',
    'Issuer (platform ID)': 'https://canvas.example.edu',
    'Client ID': '10000000000001',
    'Authorization (OIDC auth) URL': 'https://canvas.example.edu/api/lti/authorize_redirect',
    'Access token URL': 'https://canvas.example.edu/login/oauth2/token',
    'Platform keyset URL (JWKS)': 'https://canvas.example.edu/api/lti/security/jwks',
    'Deployment IDs': '1:abc\n2:def',
    ...overrides,
  };
  for (const [label, value] of Object.entries(values)) await user.type(screen.getByLabelText(label), value);
}

describe('/creator/lti', () => {
  it("shows the tool's URLs and registers a platform, listing it", async () => {
    signInAs();
    const { created } = servePlatforms();
    const { user } = renderApp('/creator/lti');
    expect(await screen.findByText(TOOL.loginUrl)).toBeInTheDocument();
    expect(screen.getByText(TOOL.jwksUrl)).toBeInTheDocument();
    await fillRegistration(user);
    await user.click(screen.getByRole('button', { name: 'Register platform' }));
    const list = screen.getByRole('list', { name: 'Registered platforms' });
    await waitFor(() => expect(within(list).getByText('Canvas')).toBeInTheDocument());
    expect(created).toEqual([
      expect.objectContaining({ clientId: '10000000000001', deploymentIds: ['1:abc', '2:def'] }),
    ]);
  });

  it('refuses a plain-http URL before sending, and shows the service’s conflict under the client ID', async () => {
    signInAs();
    const { created } = servePlatforms({ conflict: true });
    const { user } = renderApp('/creator/lti');
    await screen.findByText(TOOL.loginUrl);
    await fillRegistration(user, { 'Issuer (platform ID)': 'http://canvas.example.edu' });
    await user.click(screen.getByRole('button', { name: 'Register platform' }));
    expect(await screen.findByText(LtiMessages.httpsRequired)).toBeInTheDocument();
    expect(created).toEqual([]);

    await user.clear(screen.getByLabelText('Issuer (platform ID)'));
    await user.type(screen.getByLabelText('Issuer (platform ID)'), 'https://canvas.example.edu');
    await user.click(screen.getByRole('button', { name: 'Register platform' }));
    expect(await screen.findByText(LtiMessages.duplicate)).toBeInTheDocument();
    expect(created).toHaveLength(1);
  });
});
