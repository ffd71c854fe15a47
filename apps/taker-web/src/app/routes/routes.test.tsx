import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../testing/render.tsx';

describe('static routes', () => {
  it('links Create Assessment to the creator app origin from the runtime config', async () => {
    renderRoute('/');
    const create = await screen.findByRole('link', { name: /Create Assessment/ });
    await expect.poll(() => create.getAttribute('href')).toBe('http://creator.test/creator/auth');
    expect(screen.getByRole('link', { name: 'Take Assessment' })).toHaveAttribute('href', '/taker/start');
  });

  it('shows Coming Soon on /about and /careers', async () => {
    renderRoute('/careers');
    expect(await screen.findByRole('heading', { name: 'Coming Soon' })).toBeInTheDocument();
  });

  it('shows the 404 page with a way home for an unknown path', async () => {
    renderRoute('/nowhere');
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });

  it('shows the completion texts with the answered count from the navigation state', async () => {
    renderRoute('/taker/results', { answered: 3, total: 5 });
    expect(await screen.findByRole('heading', { name: 'Exam Completed' })).toBeInTheDocument();
    expect(screen.getByText('Thank you for attempting this exam')).toBeInTheDocument();
    expect(screen.getByText('Your answers have been submitted successfully.')).toBeInTheDocument();
    expect(screen.getByText('Questions Answered: 3 of 5')).toBeInTheDocument();
    expect(
      screen.getByText('Your exam has been submitted and the results will be available to your instructor.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Return to Home' })).toBeInTheDocument();
  });
});
