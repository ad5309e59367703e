// First: the browser's language tag made one Intl accepts before anything formats with it (ui/locale.ts).
import './ui/supported-navigator-locale';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiProblem } from './api/client';
import { App } from './app';
import { ErrorBoundary } from './ui/error-boundary';
import './styles.css';

/** A request refused because the person is no longer signed in (signed out elsewhere, expired, banned). */
const signedOut = (error: Error) => error instanceof ApiProblem && (error.status === 401 || error.code === 'banned');

const queries: QueryClient = new QueryClient({
  defaultOptions: {
    // Only what the network dropped is worth asking again; a problem the server answered stays answered.
    queries: { retry: (count, error) => count < 2 && (!(error instanceof ApiProblem) || error.status === 0) },
  },
  queryCache: new QueryCache({
    // Read who is signed in again: the app then shows the sign-in page.
    onError: (error, query) => {
      if (signedOut(error) && query.queryKey[0] !== 'me') void queries.invalidateQueries({ queryKey: ['me'] });
    },
  }),
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <ErrorBoundary>
        <App />
      </ErrorBoundary>
    </QueryClientProvider>
  </StrictMode>,
);
