// One labelled row of examples on the /_design page.
import type { ReactNode } from 'react';

export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="design-row">
      <span className="design-label">{label}</span>
      {children}
    </div>
  );
}
