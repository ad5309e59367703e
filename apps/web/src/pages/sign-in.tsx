import { type AuthProvider, ProvidersResponse } from '@renamer/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';

const LABELS: Record<AuthProvider, string> = { oidc: 'Sign in', github: 'Sign in with GitHub' };

/**
 * Sign-in goes through one of the configured providers (OpenID Connect, GitHub when the server has it), then comes
 * back here. One card, in the visual system; until the list has come, the provider every server has.
 */
export function SignInPage({ notice }: { notice?: string | undefined }) {
  const providers = useQuery({
    queryKey: ['sign-in-providers'],
    queryFn: () => api('/api/auth/providers', ProvidersResponse),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const offered = providers.data?.providers ?? ['oidc'];
  return (
    <main className="narrow">
      <div className="sign-in">
        <h1>Renamer</h1>
        <p>Search-engine-friendly names for your photos, in bulk.</p>
        {notice && (
          <p role="alert" className="problem">
            {notice}
          </p>
        )}
        {offered.map((provider) => (
          <a key={provider} className="button" href={`/api/auth/login?returnTo=/&provider=${provider}`}>
            {LABELS[provider]}
          </a>
        ))}
      </div>
    </main>
  );
}
