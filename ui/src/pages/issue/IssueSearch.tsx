// Find an issue of the company by title or identifier (the list route's `q`), to pick it as parent,
// blocker or sub-issue. A combobox: arrows move, Enter picks, Escape closes.
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { issueSearchQuery } from '../../queries/issues';

const MATCHES = 8;

export interface PickedIssue {
  id: string;
  identifier: string;
  title: string;
}

export function IssueSearch({
  companyId,
  label,
  exclude,
  onPick,
}: {
  companyId: string;
  label: string;
  exclude: string[];
  onPick: (issue: PickedIssue) => void;
}) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const q = useDeferredValue(text.trim());
  const listId = useId();
  const results = useQuery(issueSearchQuery(companyId, q, MATCHES + exclude.length));
  const matches = (results.data ?? []).filter((issue) => !exclude.includes(issue.id)).slice(0, MATCHES);
  const open = q.length > 0 && matches.length > 0;
  const highlighted = matches[Math.min(active, matches.length - 1)];
  const pick = (issue: PickedIssue) => {
    onPick(issue);
    setText('');
  };
  return (
    <div className="issue-search">
      <label className="hint" htmlFor={`${listId}-input`}>
        {label}
      </label>
      <input
        id={`${listId}-input`}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        placeholder="Title or identifier"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setText('');
          if (!open) return;
          if (event.key === 'ArrowDown') setActive((i) => (i + 1) % matches.length);
          else if (event.key === 'ArrowUp') setActive((i) => (i - 1 + matches.length) % matches.length);
          else if (event.key === 'Enter' && highlighted) pick(highlighted);
          else return;
          event.preventDefault();
        }}
      />
      {open && (
        <ul role="listbox" id={listId} className="picker-list" aria-label={`${label}: matches`}>
          {matches.map((issue, index) => (
            <li
              key={issue.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(issue)}
            >
              <span className="mono">{issue.identifier}</span> {issue.title}
            </li>
          ))}
        </ul>
      )}
      {q.length > 0 && results.isSuccess && matches.length === 0 && <p className="muted">No issue matches “{q}”.</p>}
      {results.isError && (
        <ErrorNotice error={results.error} title="Issues could not be searched" retry={() => void results.refetch()} />
      )}
    </div>
  );
}
