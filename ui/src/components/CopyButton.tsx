// Copies a text to the clipboard and says, politely, whether it worked.
import { useState } from 'react';

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <span className="copy-button">
      <button type="button" onClick={copy}>
        {label}
      </button>
      <span role="status" className="muted">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'The browser refused the clipboard: select the text and copy it by hand.'
            : ''}
      </span>
    </span>
  );
}
