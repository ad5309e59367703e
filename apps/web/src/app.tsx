import { Profile } from '@renamer/contracts';
import { useQuery } from '@tanstack/react-query';
import { ApiProblem, api } from './api/client';
import { AccountPage } from './pages/account';
import { SignInPage } from './pages/sign-in';

/** Who is signed in decides the page: the sign-in page for nobody, the account for a person. */
export function App() {
  const me = useQuery({ queryKey: ['me'], queryFn: () => api('/api/auth/me', Profile) });
  if (me.isPending) return <p aria-busy="true">Loading…</p>;
  if (me.error instanceof ApiProblem && me.error.status === 401) return <SignInPage />;
  if (me.error) return <p role="alert">{me.error.message}</p>;
  return <AccountPage profile={me.data} />;
}
