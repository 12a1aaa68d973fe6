// Sign-in: the board signs in with the one-time link the server prints at start (or writes to
// <data dir>/login-url). There is no password; this page explains how to get a link.
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';

const REASONS: Record<string, string> = {
  'link-invalid': 'That sign-in link is unknown, already used or expired. Each link works once, for 24 hours.',
  'signed-out': 'You are signed out.',
};

export function SignInPage() {
  const [params] = useSearchParams();
  const reason = params.get('reason');
  return (
    <main id="main" className="sign-in">
      <div className="card">
        <PageHeader title="Sign in to Boardroom" />
        {reason && REASONS[reason] && (
          <p
            className={reason === 'signed-out' ? 'notice' : 'notice notice-error'}
            role={reason === 'signed-out' ? 'status' : 'alert'}
          >
            {REASONS[reason]}
          </p>
        )}
        <p>Boardroom signs you in with a one-time link. Every time the server starts it makes a new one:</p>
        <ul>
          <li>in a terminal, it prints the link: open it in this browser;</li>
          <li>
            when its output is not a terminal (a service, a container), the link is in the file <code>login-url</code>{' '}
            in the data directory (<code>~/.boardroom/login-url</code> by default);
          </li>
        </ul>
        <p className="muted">A link works once and for 24 hours; the session it opens lasts 30 days in this browser.</p>
      </div>
    </main>
  );
}
