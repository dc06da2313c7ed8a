import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { useConfirm } from './confirm';

/**
 * Leaving with unsaved changes asks first: in the app's confirm dialog for a navigation inside
 * the app, and the browser's own question for a reload or a closed tab.
 */
export function useLeaveGuard(dirty: boolean) {
  const confirm = useConfirm();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirm({ title: 'Leave without saving?', message: 'Your changes are not saved and will be lost.', confirmLabel: 'Leave' }).then((leave) => (leave ? blocker.proceed() : blocker.reset()));
  }, [blocker, confirm]);

  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener('beforeunload', ask);
    return () => removeEventListener('beforeunload', ask);
  }, [dirty]);
}
