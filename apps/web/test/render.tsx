import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, vi } from 'vitest';

// jsdom has no matchMedia; uPlot reads the pixel ratio through it when it loads.
if (typeof window !== 'undefined' && !window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList;
}

/** A request the component made: method, path and query, and its JSON body. */
export interface SentRequest {
  method: string;
  url: URL;
  body: unknown;
}

type Answer = { status?: number; json: unknown } | ((request: SentRequest) => { status?: number; json: unknown });

/**
 * The server side of a component test: each route (`METHOD /path`, the query left out) answers what the API
 * would, shaped by the contract (the app parses every answer with the contract's schema, so a wrong shape fails
 * the test). Every request is recorded.
 */
export function fakeApi(routes: Record<string, Answer>) {
  const sent: SentRequest[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://renamer.test');
    const method = init.method ?? 'GET';
    const request = { method, url, body: init.body ? JSON.parse(String(init.body)) : undefined };
    sent.push(request);
    if (url.pathname === '/api/auth/csrf') return Response.json({ token: 'csrf' });
    const route = routes[`${method} ${url.pathname}`];
    if (!route)
      return Response.json({ code: 'not_found', detail: `No fake for ${method} ${url.pathname}` }, { status: 404 });
    const answer = typeof route === 'function' ? route(request) : route;
    return Response.json(answer.json, { status: answer.status ?? 200 });
  });
  return { sent };
}

/** The component inside the app's query client, as main.tsx provides it (no retries in tests). */
export function renderWithQueries(ui: ReactNode) {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={queries}>{ui}</QueryClientProvider>);
}

afterEach(() => {
  vi.unstubAllGlobals();
});
