// An address the board has no page for. Under a company it shows in the company's frame (sidebar
// and all, see routes.tsx), so the way on is where it always is; here too: the dashboard, or back.
import { ArrowLeft } from 'lucide-react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { Icon } from '../../components/ui/Icon';

export function NotFoundPage() {
  const { companyId } = useParams();
  // The address without the company's id: words, not a UUID.
  const address = useLocation().pathname.replace(/^\/c\/[^/]+/, '') || '/';
  const navigate = useNavigate();
  // A page opened straight from a link has no board page behind it to go back to.
  const canGoBack = window.history.length > 1;
  return (
    <div className="page not-found">
      <PageHeader title="Page not found" />
      <p>
        There is no page at <span className="mono not-found-path">{address}</span>. It may have moved, or the link may
        be mistyped.
      </p>
      <p className="not-found-actions">
        <Link className="button primary" to={companyId ? `/c/${companyId}/dashboard` : '/'}>
          Go to the dashboard
        </Link>
        {canGoBack && (
          <button type="button" onClick={() => void navigate(-1)}>
            <Icon icon={ArrowLeft} /> Back
          </button>
        )}
      </p>
    </div>
  );
}
