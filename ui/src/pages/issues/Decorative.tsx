import type { ReactNode } from 'react';

/**
 * An icon or avatar before words that already say the same ("Blocked", "High", "Dev"): hidden from
 * screen readers, so an option or menu item is named once ("Blocked", not "Blocked Blocked").
 */
export function Decorative({ children }: { children: ReactNode }) {
  return (
    <span className="decorative" aria-hidden="true">
      {children}
    </span>
  );
}
