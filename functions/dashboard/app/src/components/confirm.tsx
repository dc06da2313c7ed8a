import { createContext, useCallback, useContext, useEffect, useRef, useState, type ButtonHTMLAttributes, type ReactNode } from 'react';

interface ConfirmRequest {
  title: string;
  message: string;
  confirmLabel: string;
  resolve: (confirmed: boolean) => void;
}

const ConfirmContext = createContext<(request: Omit<ConfirmRequest, 'resolve'>) => Promise<boolean>>(async () => false);

/**
 * Every destructive action asks first, in one modal <dialog> (the browser traps focus in it,
 * Escape cancels, focus returns to the button that opened it).
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);

  const confirm = useCallback(
    (next: Omit<ConfirmRequest, 'resolve'>) =>
      new Promise<boolean>((resolve) => {
        opener.current = document.activeElement;
        setRequest({ ...next, resolve });
      }),
    [],
  );

  useEffect(() => {
    if (request && !dialog.current?.open) dialog.current?.showModal();
  }, [request]);

  const close = (confirmed: boolean) => {
    request?.resolve(confirmed);
    setRequest(null);
    dialog.current?.close();
    if (opener.current instanceof HTMLElement) opener.current.focus();
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <dialog ref={dialog} className="confirm" aria-labelledby="confirm-title" aria-describedby="confirm-message" onCancel={(event) => (event.preventDefault(), close(false))}>
        {request && (
          <>
            <h2 id="confirm-title">{request.title}</h2>
            <p id="confirm-message">{request.message}</p>
            <div className="actions">
              <button type="button" onClick={() => close(false)} autoFocus>
                Cancel
              </button>
              <button type="button" className="danger" onClick={() => close(true)}>
                {request.confirmLabel}
              </button>
            </div>
          </>
        )}
      </dialog>
    </ConfirmContext.Provider>
  );
}

export const useConfirm = () => useContext(ConfirmContext);

interface ConfirmButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick' | 'type'> {
  /** What the dialog asks. */
  question: Omit<ConfirmRequest, 'resolve'>;
  /** Runs once the user confirmed. */
  onConfirm: () => void;
}

/** A button that asks in the dialog first and acts only on yes. */
export function ConfirmButton({ question, onConfirm, children, ...button }: ConfirmButtonProps) {
  const confirm = useConfirm();
  return (
    <button
      type="button"
      {...button}
      onClick={async () => {
        if (await confirm(question)) onConfirm();
      }}
    >
      {children}
    </button>
  );
}
