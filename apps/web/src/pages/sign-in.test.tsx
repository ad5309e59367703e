// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, renderWithQueries } from '../../test/render';
import { SignInPage } from './sign-in';

afterEach(cleanup);

describe('the sign-in page', () => {
  it('offers GitHub beside the OpenID provider when the server has it', async () => {
    fakeApi({ 'GET /api/auth/providers': { json: { providers: ['oidc', 'github'] } } });
    renderWithQueries(<SignInPage />);
    const github = await screen.findByRole('link', { name: 'Sign in with GitHub' });
    expect(github.getAttribute('href')).toBe('/api/auth/login?returnTo=/&provider=github');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/api/auth/login?returnTo=/&provider=oidc',
    );
  });

  it('offers only the OpenID provider when GitHub is not configured', async () => {
    const { sent } = fakeApi({ 'GET /api/auth/providers': { json: { providers: ['oidc'] } } });
    renderWithQueries(<SignInPage />);
    await screen.findByRole('link', { name: 'Sign in' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent.map((request) => request.url.pathname)).toContain('/api/auth/providers');
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual(['Sign in']);
  });
});
