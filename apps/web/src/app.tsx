import { Profile } from '@renamer/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiProblem, api } from './api/client';
import { AccountPage } from './pages/account';
import { BatchesPage } from './pages/batches';
import { SignInPage } from './pages/sign-in';
import { UploadPage } from './pages/upload';

const PAGES = { '/': 'Upload', '/batches': 'Batches', '/account': 'Account' } as const;
type PagePath = keyof typeof PAGES;
const pageOf = (path: string): PagePath => (path in PAGES ? (path as PagePath) : '/');

/** Who is signed in decides the page: the sign-in page for nobody, the app for a person. */
export function App() {
  const me = useQuery({ queryKey: ['me'], queryFn: () => api('/api/auth/me', Profile) });
  const [path, setPath] = useState<PagePath>(pageOf(location.pathname));
  useEffect(() => {
    const onBack = () => setPath(pageOf(location.pathname));
    window.addEventListener('popstate', onBack);
    return () => window.removeEventListener('popstate', onBack);
  }, []);
  const go = (to: PagePath) => {
    history.pushState(null, '', to);
    setPath(to);
  };

  if (me.isPending) return <p aria-busy="true">Loading…</p>;
  if (me.error instanceof ApiProblem && me.error.status === 401) return <SignInPage />;
  if (me.error) return <p role="alert">{me.error.message}</p>;
  return (
    <main>
      <header className="bar">
        <h1>Renamer</h1>
        <nav aria-label="Pages">
          {(Object.keys(PAGES) as PagePath[]).map((to) => (
            <a
              key={to}
              href={to}
              aria-current={to === path ? 'page' : undefined}
              onClick={(event) => {
                event.preventDefault();
                go(to);
              }}
            >
              {PAGES[to]}
            </a>
          ))}
        </nav>
      </header>
      {path === '/' && <UploadPage onUploaded={() => undefined} />}
      {path === '/batches' && <BatchesPage />}
      {path === '/account' && <AccountPage profile={me.data} />}
    </main>
  );
}
