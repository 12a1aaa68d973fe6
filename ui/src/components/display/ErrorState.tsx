// A part of a page that could not load, in place of its content: ErrorNotice's words (what went wrong,
// what to do, Try again) under an icon, laid out like an EmptyState.
import { CircleAlert } from 'lucide-react';
import { ErrorNotice } from '../ErrorNotice';
import { Icon } from '../ui/Icon';

export function ErrorState({ error, title, retry }: { error: unknown; title: string; retry?: () => void }) {
  return (
    <div className="error-state">
      <span className="error-state-icon">
        <Icon icon={CircleAlert} size={20} />
      </span>
      <ErrorNotice error={error} title={title} retry={retry} />
    </div>
  );
}
