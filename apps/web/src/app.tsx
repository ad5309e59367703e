import { Profile } from '@renamer/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiProblem, api } from './api/client';
import { AccountPage } from './pages/account';
import { BatchesPage } from './pages/batches';
import { ReviewPage } from './pages/review';
import { SignInPage } from './pages/sign-in';
import { UploadPage } from './pages/upload';

const PAGES = { '/': 'Upload', '/batches': 'Batches', '/account': 'Account' } as const;
type PagePath = keyof typeof PAGES;
const REVIEW = /^\/batches\/([0-9a-f-]{36})$/;
/** The app's pages by path: the three of the menu, and a batch's review. */
const pageOf = (path: string): string => (path in PAGES || REVIEW.test(path) ? path : '/');

/** Who is signed in decides the page: the sign-in page for nobody, the app for a person. */
export function App() {
  const me = useQuery({ queryKey: ['me'], queryFn: () => api('/api/auth/me', Profile) });
  const [path, setPath] = useState<string>(pageOf(location.pathname));
  useEffect(() => {
    const onBack = () => setPath(pageOf(location.pathname));
    window.addEventListener('popstate', onBack);
    return () => window.removeEventListener('popstate', onBack);
  }, []);
  const go = (to: string) => {
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
      {path === '/batches' && <BatchesPage onReview={(batchId) => go(`/batches/${batchId}`)} />}
      {REVIEW.test(path) && <ReviewPage batchId={REVIEW.exec(path)![1]!} onLeave={() => go('/batches')} />}
      {path === '/account' && <AccountPage profile={me.data} />}
    </main>
  );
}
