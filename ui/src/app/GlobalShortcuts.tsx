// Keyboard reach from any page of a company: the command palette (Ctrl/Cmd-K, also from a text
// field), and bare keys when focus is not in a text field and no dialog is open: `c` creates an
// issue, `g` then a key goes to a page, `?` lists the shortcuts.
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '../components/Dialog';
import { CreateIssueDialog } from '../pages/issues/CreateIssueDialog';
import { CommandPalette } from './CommandPalette';
import { SHORTCUTS } from './CommandPaletteCommands';
import { PLACES, placeHref } from './places';

/** How long after `g` the second key counts. */
const GO_WINDOW_MS = 1_200;

export function inTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return (
    target instanceof HTMLInputElement &&
    !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color'].includes(target.type)
  );
}

export function GlobalShortcuts({ companyId }: { companyId: string }) {
  const [palette, setPalette] = useState(false);
  const [creating, setCreating] = useState(false);
  const [help, setHelp] = useState(false);
  const navigate = useNavigate();
  const goPending = useRef(0);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPalette((open) => !open);
        return;
      }
      // Bare keys: never while typing, with a modifier, or when a dialog (the top layer) is open.
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || inTextField(event.target)) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      if (Date.now() - goPending.current < GO_WINDOW_MS) {
        goPending.current = 0;
        const place = PLACES.find((candidate) => candidate.goKey === event.key);
        if (place) {
          event.preventDefault();
          // void: a navigation's failures show in the route's error element.
          void navigate(placeHref(companyId, place));
        }
        return;
      }
      if (event.key === 'g') goPending.current = Date.now();
      else if (event.key === 'c') {
        event.preventDefault();
        setCreating(true);
      } else if (event.key === '?') {
        event.preventDefault();
        setHelp(true);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [companyId, navigate]);

  return (
    <>
      <CommandPalette
        companyId={companyId}
        open={palette}
        onOpenChange={setPalette}
        onCreateIssue={() => setCreating(true)}
      />
      <CreateIssueDialog companyId={companyId} open={creating} onOpenChange={setCreating} />
      <Dialog open={help} onOpenChange={setHelp} title="Keyboard shortcuts">
        <table className="table shortcuts">
          <thead>
            <tr>
              <th scope="col">Keys</th>
              <th scope="col">Does</th>
            </tr>
          </thead>
          <tbody>
            {SHORTCUTS.map((shortcut) => (
              <tr key={shortcut.does}>
                <td>
                  {shortcut.keys.map((key, index) => (
                    <span key={key}>
                      {index > 0 && ` ${shortcut.joiner} `}
                      <kbd>{key}</kbd>
                    </span>
                  ))}
                </td>
                <td>{shortcut.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="step-actions">
          <button type="button" onClick={() => setHelp(false)}>
            Close
          </button>
        </div>
      </Dialog>
    </>
  );
}
