// A key or chord as the keyboard shows it: `<Kbd>Ctrl K</Kbd>` or `<Kbd keys={['G', 'I']} />` (one cap each).
import type { ReactNode } from 'react';

export function Kbd({ children, keys }: { children?: ReactNode; keys?: string[] }) {
  if (keys)
    return (
      <span className="kbd-group">
        {keys.map((key) => (
          <kbd key={key} className="kbd">
            {key}
          </kbd>
        ))}
      </span>
    );
  return <kbd className="kbd">{children}</kbd>;
}
