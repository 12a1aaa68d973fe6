import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ApiError } from './api/client';
import { router } from './app/routes';
import { Toaster } from './components/ui/Toast';
import { applyStoredTheme } from './lib/theme';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // The board's server is often on this machine: the browser's idea of being online (no Wi-Fi)
    // says nothing about reaching it, and a paused request would leave the page silently stale.
    // Every call goes out; one that cannot reach the server fails and says so.
    mutations: { networkMode: 'always' },
    queries: {
      networkMode: 'always',
      // Live events refresh what changed; a focus refetch on top would only add load.
      refetchOnWindowFocus: false,
      staleTime: 30_000,
      // A 4xx will not get better by asking again; a dropped connection may.
      retry: (failures, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
    },
  },
});

applyStoredTheme();

const rootElement = document.getElementById('root');
// index.html holds it; a page served without it is a broken build, said plainly rather than blank.
if (!rootElement) throw new Error('Boardroom: index.html has no #root element to mount the board in');

createRoot(rootElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>
  </StrictMode>,
);
