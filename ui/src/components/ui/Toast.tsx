// Toasts: `toast({ tone, title, description?, action? })` from anywhere (a mutation's onSuccess, a live
// event), shown by the one <Toaster /> mounted at the root. The region is polite (announced after what
// the reader is saying), stacked bottom-right (bottom-centre on a phone), each gone after a few seconds
// unless the pointer or focus is on it, and at once with its Dismiss button or its action (Undo).
import { CircleAlert, CircleCheck, Info, X } from 'lucide-react';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { Button, IconButton } from './Button';
import { Icon } from './Icon';

export type ToastTone = 'success' | 'error' | 'info';

export interface ToastOptions {
  tone?: ToastTone;
  title: string;
  description?: string;
  /** One action beside the text (Undo); taking it dismisses the toast. */
  action?: { label: string; onClick: () => void };
  /** How long it stays, in ms (default 5 s, 8 s with an action). */
  duration?: number;
}

interface ShownToast extends ToastOptions {
  id: number;
}

let toasts: ShownToast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

/** Shows a toast; returns a function that dismisses it. At most five stay on screen (the oldest go first). */
export function toast(options: ToastOptions): () => void {
  const id = nextId++;
  toasts = [...toasts, { ...options, id }].slice(-5);
  emit();
  return () => dismissToast(id);
}

function dismissToast(id: number): void {
  toasts = toasts.filter((shown) => shown.id !== id);
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Mount once (main.tsx). The live region is always in the page, so a toast added to it is announced. */
export function Toaster() {
  const shown = useSyncExternalStore(subscribe, () => toasts);
  return (
    <section className="toaster" aria-label="Notifications">
      <ol className="toast-list" aria-live="polite">
        {shown.map((item) => (
          <ToastItem key={item.id} toast={item} />
        ))}
      </ol>
    </section>
  );
}

const TONE_ICON = { success: CircleCheck, error: CircleAlert, info: Info } as const;

function ToastItem({ toast: item }: { toast: ShownToast }) {
  const tone = item.tone ?? 'info';
  const paused = useRef(false);
  useEffect(() => {
    const duration = item.duration ?? (item.action ? 8_000 : 5_000);
    let left = duration;
    let last = Date.now();
    // Counts down only while neither hovered nor focused, so a reader has the time they need.
    const timer = setInterval(() => {
      const now = Date.now();
      if (!paused.current) left -= now - last;
      last = now;
      if (left <= 0) dismissToast(item.id);
    }, 250);
    return () => clearInterval(timer);
  }, [item]);
  const pause = () => {
    paused.current = true;
  };
  const resume = () => {
    paused.current = false;
  };
  return (
    <li
      className={`toast toast-${tone}`}
      onPointerEnter={pause}
      onPointerLeave={resume}
      onFocus={pause}
      onBlur={resume}
    >
      <Icon icon={TONE_ICON[tone]} className="toast-icon" />
      <div className="toast-text">
        <p className="toast-title">{item.title}</p>
        {item.description && <p className="toast-description">{item.description}</p>}
      </div>
      {item.action && (
        <Button
          size="sm"
          onClick={() => {
            item.action?.onClick();
            dismissToast(item.id);
          }}
        >
          {item.action.label}
        </Button>
      )}
      <IconButton icon={X} size="sm" aria-label="Dismiss" onClick={() => dismissToast(item.id)} />
    </li>
  );
}
