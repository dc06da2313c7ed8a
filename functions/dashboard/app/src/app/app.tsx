import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { ConfirmProvider } from '../components/confirm';
import { Loading } from '../components/ui';
import { queryClient } from '../lib/query-client';
import { resumeSession } from '../lib/session';
import { router } from './router';

export function App() {
  const [resumed, setResumed] = useState(false);
  useEffect(() => {
    void resumeSession().finally(() => setResumed(true));
  }, []);

  return (
    <QueryClientProvider client={queryClient}>
      <ConfirmProvider>{resumed ? <RouterProvider router={router} /> : <Loading what="the dashboard" />}</ConfirmProvider>
    </QueryClientProvider>
  );
}
