// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiProblem } from '../api/client';
import { ProblemLine } from './problem';

afterEach(cleanup);

describe('a problem shown to a person', () => {
  it('is read out as an alert: what the server said, then what to do next', () => {
    render(
      <ProblemLine error={new ApiProblem(402, 'quota_exceeded', 'These 12 images would exceed your quota of 50.')} />,
    );
    expect(screen.getByRole('alert').textContent).toBe(
      'These 12 images would exceed your quota of 50. Your monthly quota is used up: upgrade on the Plans page, or wait for next month.',
    );
  });

  it('says a lost connection is one, not a server error', () => {
    render(<ProblemLine error={new ApiProblem(0, 'network', 'The request did not reach the server.')} />);
    expect(screen.getByRole('alert').textContent).toMatch(
      /did not reach the server\. The server cannot be reached\. Check your connection/,
    );
  });

  it('shows nothing when nothing went wrong', () => {
    const { container } = render(<ProblemLine error={null} />);
    expect(container.textContent).toBe('');
  });
});
