import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RepositoryFiles } from './repository-files.tsx';

describe("an agentic task's starter repository", () => {
  it('lists its files and says they are in the workspace', () => {
    render(<RepositoryFiles index={1} files={['src/parse.py', 'README.md']} />);
    const region = screen.getByRole('region', { name: 'Starter repository of question 2' });
    expect(region).toHaveTextContent("This task's starter repository (2 files) is in your workspace:");
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['README.md', 'src/parse.py']);
  });
});
