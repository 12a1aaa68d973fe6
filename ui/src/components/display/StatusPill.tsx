// A status in words on its tone's colours: the one way a status badge looks. Callers pass what the
// status means (a Tone from the vocabularies), never a colour or a class.
import type { ReactNode } from 'react';
import type { Tone } from '../../lib/statuses';

export function StatusPill({ tone, children, title }: { tone: Tone; children: ReactNode; title?: string }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {tone === 'live' && <span className="live-dot live-motion" aria-hidden="true" />}
      {children}
    </span>
  );
}
