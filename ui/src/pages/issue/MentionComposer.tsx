// A markdown text area that completes `@Agent Name` from the company's agents: typing `@` and a few
// letters lists the matches; arrows move, Enter or Tab picks, Escape closes. The server wakes every
// agent named this way in a comment (SPEC comment rules), so the full name is inserted.
import { useId, useLayoutEffect, useRef, useState } from 'react';
import type { Agent } from '../../queries/agents';

const MATCHES = 8;
/** The `@word` being typed just before the caret: after a space or at the start, no newline in it. */
const MENTION_AT_CARET = /(^|\s)@([^@\n]{0,40})$/;

export function MentionComposer({
  agents,
  value,
  onChange,
  onSubmit,
  label,
}: {
  agents: Agent[];
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  label: string;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  /** Where the caret goes once a picked name is in the text. */
  const caretAfterPick = useRef<number | null>(null);

  // Set in the same commit as the new text, before the next key is handled: a caret placed a frame
  // later (requestAnimationFrame, as this did) moved under keys typed meanwhile and scrambled them
  // ("@Scribe thanks" came out "@Scribe hankst" when the frame came late on a busy machine).
  useLayoutEffect(() => {
    if (caretAfterPick.current === null) return;
    area.current?.setSelectionRange(caretAfterPick.current, caretAfterPick.current);
    caretAfterPick.current = null;
  });

  const typed = MENTION_AT_CARET.exec(value.slice(0, caret));
  const query = typed?.[2]?.toLowerCase() ?? '';
  const matches = typed ? agents.filter((agent) => agent.name.toLowerCase().includes(query)).slice(0, MATCHES) : [];
  const open = matches.length > 0 && dismissedAt !== caret;
  const highlighted = matches[Math.min(active, matches.length - 1)];

  const pick = (agent: Agent) => {
    const start = caret - (typed?.[2]?.length ?? 0) - 1;
    const next = `${value.slice(0, start)}@${agent.name} ${value.slice(caret)}`;
    const nextCaret = start + agent.name.length + 2;
    caretAfterPick.current = nextCaret;
    onChange(next);
    setCaret(nextCaret);
  };

  return (
    <div className="mention-composer">
      <textarea
        ref={area}
        aria-label={label}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        placeholder="Write a comment (markdown). Type @ to mention an agent; Ctrl-Enter posts."
        value={value}
        rows={4}
        onChange={(event) => {
          onChange(event.target.value);
          setCaret(event.target.selectionStart);
          setActive(0);
          setDismissedAt(null);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            return onSubmit();
          }
          if (!open) return;
          if (event.key === 'ArrowDown') setActive((i) => (i + 1) % matches.length);
          else if (event.key === 'ArrowUp') setActive((i) => (i - 1 + matches.length) % matches.length);
          else if ((event.key === 'Enter' || event.key === 'Tab') && highlighted) pick(highlighted);
          else if (event.key === 'Escape') setDismissedAt(caret);
          else return;
          event.preventDefault();
          event.stopPropagation();
        }}
      />
      {open && (
        <ul role="listbox" id={listId} className="picker-list" aria-label="Agents to mention">
          {matches.map((agent, index) => (
            <li
              key={agent.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(agent)}
            >
              @{agent.name} <span className="muted">{agent.title ?? agent.role}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
