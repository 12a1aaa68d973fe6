// A short hint on hover and keyboard focus (Radix: it describes its trigger, Escape hides it). Never
// the only name of a control: an icon button keeps its aria-label. `shortcut` shows the key beside it.
import * as RadixTooltip from '@radix-ui/react-tooltip';
import type { ReactElement, ReactNode } from 'react';
import { Kbd } from './Kbd';

export function Tooltip({
  content,
  shortcut,
  side = 'top',
  children,
}: {
  content: ReactNode;
  shortcut?: string;
  side?: 'top' | 'right' | 'bottom' | 'left';
  /** One focusable element (a Button, a link); it receives the hover and focus handlers. */
  children: ReactElement;
}) {
  return (
    <RadixTooltip.Provider delayDuration={400} skipDelayDuration={200}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content className="tooltip" side={side} sideOffset={6} collisionPadding={8}>
            {content}
            {shortcut && <Kbd>{shortcut}</Kbd>}
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
