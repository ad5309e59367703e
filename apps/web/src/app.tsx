import { Profile } from '@renamer/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { ADMIN_PATH } from './admin/admin-path';
import { ApiProblem, api } from './api/client';
import { LiveSocketContext } from './api/live-batches';
import { LiveSocket } from './api/live-socket';
import { AccountPage } from './pages/account';
import { BatchesPage } from './pages/batches';
import { PlansPage } from './pages/plans';
import { ReviewPage } from './pages/review';
import { SignInPage } from './pages/sign-in';
import { UploadPage } from './pages/upload';
import { ProblemLine } from './ui/problem';

// Its own file, with the chart library: people who are not operators never download it.
const AdminPage = lazy(() => import('./admin/admin-page'));

const PAGES = { '/': 'Upload', '/batches': 'Batches', '/plans': 'Plans', '/account': 'Account' } as const;
type PagePath = keyof typeof PAGES;
const REVIEW = /^\/batches\/([0-9a-f-]{36})$/;
/** The app's pages by path: those of the menu, a batch's review, and the admin dashboard's sections. */
const pageOf = (path: string): string => (path in PAGES || REVIEW.test(path) || ADMIN_PATH.test(path) ? path : '/');

/** What Stripe's return addresses (`/?billing=…`) mean to the person coming back. */
const BILLING_RETURNS: Record<string, string> = {
  success: 'Thank you: your payment went through. Your new plan applies as soon as Stripe confirms it.',
  cancelled: 'The checkout was cancelled; nothing was charged.',
  portal: 'Back from the billing portal.',
};

/**
 * Every page starts at its top with the focus where its keys work: the element marked `data-autofocus` (the
 * review's list), else the page's heading. Once drawn, so the page's own elements are there.
 */
function useArriveReady(path: string, shown: boolean) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new path is what the effect runs for.
  useEffect(() => {
    if (!shown) return;
    window.scrollTo(0, 0);
    const frame = requestAnimationFrame(() => {
      const target =
        document.querySelector<HTMLElement>('main [data-autofocus]') ?? document.querySelector<HTMLElement>('main h2');
      if (!target) return;
      if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
      target.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [path, shown]);
}

/** Who is signed in decides the page: the sign-in page for nobody, the app for a person. */
export function App() {
  const queries = useQueryClient();
  const me = useQuery({ queryKey: ['me'], queryFn: () => api('/api/auth/me', Profile) });
  const userId = me.isError ? undefined : me.data?.id;
  const [live, setLive] = useState<LiveSocket>();
  // One socket for the page while someone is signed in: live progress, and a sign-out, ban or deleted account
  // noticed at once (the API closes it; who is signed in is read again).
  useEffect(() => {
    if (!userId) return;
    const socket = new LiveSocket(() => void queries.invalidateQueries({ queryKey: ['me'] }));
    setLive(socket);
    return () => socket.stop();
  }, [userId, queries]);
  const [path, setPath] = useState<string>(pageOf(location.pathname));
  const [billing] = useState(() => BILLING_RETURNS[new URLSearchParams(location.search).get('billing') ?? '']);
  useEffect(() => {
    const onBack = () => setPath(pageOf(location.pathname));
    window.addEventListener('popstate', onBack);
    return () => window.removeEventListener('popstate', onBack);
  }, []);
  const go = (to: string) => {
    history.pushState(null, '', to);
    setPath(to);
  };
  useArriveReady(path, me.isSuccess);

  if (me.isPending) return <p aria-busy="true">Loading…</p>;
  if (me.error instanceof ApiProblem && me.error.status === 401) return <SignInPage />;
  if (me.error instanceof ApiProblem && me.error.code === 'banned') {
    return <SignInPage notice={`${me.error.message} Contact support if you think this is a mistake.`} />;
  }
  if (me.error) return <ProblemLine error={me.error} />;
  const links: [string, string][] = [
    ...(Object.keys(PAGES) as PagePath[]).map((to): [string, string] => [to, PAGES[to]]),
    ...(me.data.role === 'admin' ? [['/admin', 'Admin'] as [string, string]] : []),
  ];
  return (
    <LiveSocketContext value={live}>
      <main>
        <header className="bar">
          <h1>Renamer</h1>
          <nav aria-label="Pages">
            {links.map(([to, label]) => (
              <a
                key={to}
                href={to}
                aria-current={to === path || (to === '/admin' && ADMIN_PATH.test(path)) ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  go(to);
                }}
              >
                {label}
              </a>
            ))}
          </nav>
        </header>
        {billing && <p role="status">{billing}</p>}
        {path === '/' && <UploadPage onReview={(batchId) => go(`/batches/${batchId}`)} />}
        {path === '/batches' && <BatchesPage onReview={(batchId) => go(`/batches/${batchId}`)} />}
        {REVIEW.test(path) && <ReviewPage batchId={REVIEW.exec(path)![1]!} onLeave={() => go('/batches')} />}
        {path === '/plans' && <PlansPage />}
        {path === '/account' && <AccountPage profile={me.data} />}
        {ADMIN_PATH.test(path) && (
          <Suspense fallback={<p aria-busy="true">Loading…</p>}>
            <AdminPage profile={me.data} path={path} go={go} />
          </Suspense>
        )}
      </main>
    </LiveSocketContext>
  );
}
