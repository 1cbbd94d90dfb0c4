import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

export interface ConfirmDialogProps {
  /** Shown while true (a modal `<dialog>`: focus moves in, Escape cancels, the page behind is inert). */
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** A red confirm button for what cannot be undone. */
  danger?: boolean;
  /** The word the user must type before the confirm button works (a typed confirmation). */
  requireText?: string;
  /** Disables the buttons while the action runs. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * An in-page confirmation (instead of `window.confirm`): a modal dialog with a title, what will
 * happen, Cancel (focused first, so Enter never confirms by accident) and the action; optionally a
 * word to type first. Focus returns to where it was when the dialog closes.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel = 'Cancel', danger, requireText, busy, onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const returnTo = useRef<Element | null>(null);
  const [typed, setTyped] = useState('');
  const titleId = useId();
  const bodyId = useId();
  const inputId = useId();

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      returnTo.current = document.activeElement;
      setTyped('');
      d.showModal();
      (requireText ? inputRef.current : cancelRef.current)?.focus();
    } else if (!open && d.open) {
      d.close();
      if (returnTo.current instanceof HTMLElement && returnTo.current.isConnected) returnTo.current.focus();
    }
  }, [open, requireText]);

  const ready = !busy && (!requireText || typed.trim() === requireText);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={children ? bodyId : undefined}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onCancel();
      }}
      data-testid="confirm-dialog"
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          // The dialog may sit inside a page's own form (a settings section): its submit stays here.
          e.preventDefault();
          e.stopPropagation();
          if (ready) onConfirm();
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {children && <div id={bodyId}>{children}</div>}
        {requireText && (
          <div className="field">
            <label htmlFor={inputId}>
              Type <strong>{requireText}</strong> to confirm
            </label>
            <input id={inputId} ref={inputRef} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} />
          </div>
        )}
        <div className="row dialog-actions">
          <button type="button" ref={cancelRef} onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </button>
          <button type="button" className={danger ? 'danger-solid' : 'primary'} disabled={!ready} onClick={() => ready && onConfirm()}>
            {confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
