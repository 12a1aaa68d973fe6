// A line diff (jsdiff) from one text to another, as <del>/<ins> lines with +/- marks, so the change
// reads without colour too.
import { diffLines } from 'diff';

export function DiffView({ before, after, label }: { before: string; after: string; label: string }) {
  const parts = diffLines(before, after);
  const added = parts.filter((p) => p.added).reduce((n, p) => n + p.count, 0);
  const removed = parts.filter((p) => p.removed).reduce((n, p) => n + p.count, 0);
  return (
    <figure className="diff" aria-label={label}>
      <figcaption className="muted">
        {added === 0 && removed === 0
          ? 'No difference.'
          : `${added} line${added === 1 ? '' : 's'} added, ${removed} removed`}
      </figcaption>
      <pre tabIndex={0} aria-label={`${label}: lines`}>
        {parts.map((part, index) => {
          const lines = part.value.replace(/\n$/, '').split('\n');
          const mark = part.added ? '+ ' : part.removed ? '- ' : '  ';
          const text = lines.map((line) => mark + line).join('\n') + '\n';
          if (part.added) return <ins key={index}>{text}</ins>;
          if (part.removed) return <del key={index}>{text}</del>;
          return <span key={index}>{text}</span>;
        })}
      </pre>
    </figure>
  );
}
