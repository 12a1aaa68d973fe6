// The board's replacement for a native <input type="file">: a button and a drop zone. The real input is
// still there (hidden, out of the tab order) so forms submit the files and tests can set them; the
// button is what the keyboard and screen readers meet, named by `label` and described by the hint and
// the chosen file names.
import { Upload } from 'lucide-react';
import { type DragEvent, useId, useRef, useState } from 'react';
import { Button, type ButtonSize } from './Button';

export function FileInput({
  label,
  onFiles,
  accept,
  multiple = false,
  name,
  id,
  hint,
  disabled = false,
  size,
}: {
  /** The button's words ("Choose a logo"). */
  label: string;
  onFiles: (files: File[]) => void;
  accept?: string;
  multiple?: boolean;
  /** Submitted with the form. */
  name?: string;
  /** The button's id, for a <label htmlFor>. */
  id?: string;
  /** Under the button: what the files may be ("SVG or PNG, up to 1 MB"). */
  hint?: string;
  disabled?: boolean;
  size?: ButtonSize;
}) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [names, setNames] = useState<string[]>([]);
  const [over, setOver] = useState(false);

  const take = (files: File[]) => {
    const kept = multiple ? files : files.slice(0, 1);
    if (kept.length === 0) return;
    setNames(kept.map((file) => file.name));
    onFiles(kept);
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    const files = [...event.dataTransfer.files];
    // The hidden input holds dropped files too, so a form submits them.
    if (input.current && files.length > 0) input.current.files = event.dataTransfer.files;
    take(files);
  };

  return (
    <div
      className={over ? 'file-input file-input-over' : 'file-input'}
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <input
        ref={input}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        accept={accept}
        multiple={multiple}
        name={name}
        disabled={disabled}
        onChange={(event) => take([...(event.target.files ?? [])])}
      />
      <Button
        id={id}
        icon={Upload}
        size={size}
        disabled={disabled}
        aria-describedby={hintId}
        onClick={() => input.current?.click()}
      >
        {label}
      </Button>
      <span id={hintId} className="file-input-hint">
        {names.length > 0 ? names.join(', ') : (hint ?? 'or drop a file here')}
      </span>
    </div>
  );
}
