import { useRouteError } from 'react-router';
import { ErrorNotice } from './ErrorNotice';

/** A page that failed to load (a chunk missing after an upgrade, a render error). */
export function RouteError() {
  const error = useRouteError();
  return (
    <main className="page">
      <ErrorNotice error={error} title="This page could not be shown" retry={() => window.location.reload()} />
    </main>
  );
}
