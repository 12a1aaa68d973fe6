// The frame of every signed-in page: the sidebar (company switcher, navigation with live counts,
// the live state) and the page. Outside a company it shows the page alone (onboarding).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { NavLink, Navigate, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError, api, setUnauthorizedListener } from '../api/client';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { companiesQuery, meQuery } from '../queries/instance';
import { useSidebarCounts, type SidebarCounts } from './counts';
import { GlobalShortcuts } from './GlobalShortcuts';
import { PLACES, placeHref, type PlaceCommand } from './places';
import { rememberCompany } from './last-company';
import { LiveCompany, useLiveState } from './live';

export function Shell() {
  const me = useQuery(meQuery());
  const navigate = useNavigate();
  const location = useLocation();
  const { companyId } = useParams();

  useEffect(() => {
    setUnauthorizedListener(() => {
      // Signed out on purpose: the 401s of reads still in flight change nothing.
      if (signedOut) return;
      // void: a navigation's failures show in the route's error element.
      void navigate(`/sign-in?next=${encodeURIComponent(window.location.pathname + window.location.search)}`, {
        replace: true,
      });
    });
  }, [navigate]);
  useEffect(() => {
    if (companyId) rememberCompany(companyId);
  }, [companyId]);

  if (me.isPending) return <Loading label="Signing in" />;
  if (me.isError) {
    if (signedOut) return <Navigate to="/sign-in?reason=signed-out" replace />;
    if (me.error instanceof ApiError && me.error.status === 401)
      return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
    return (
      <main className="page">
        <ErrorNotice error={me.error} retry={() => me.refetch()} title="Boardroom could not be reached" />
      </main>
    );
  }
  if (!companyId) {
    return (
      <div className="app app-bare">
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <main id="main" className="main">
          <Outlet />
        </main>
      </div>
    );
  }
  return (
    <LiveCompany companyId={companyId}>
      <div className="app">
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Sidebar companyId={companyId} />
        <GlobalShortcuts companyId={companyId} />
        <main id="main" className="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </LiveCompany>
  );
}

const NAV_GROUPS: { group: NonNullable<PlaceCommand['nav']>; heading?: string }[] = [
  { group: 'work' },
  { group: 'money', heading: 'Money' },
  { group: 'company', heading: 'Manage' },
];

function Sidebar({ companyId }: { companyId: string }) {
  const counts = useSidebarCounts(companyId);
  const live = useLiveState();
  return (
    <nav className="sidebar" aria-label="Main">
      <CompanySwitcher companyId={companyId} />
      {NAV_GROUPS.map(({ group, heading }) => (
        <div key={group} className="nav-group">
          {heading && (
            <p className="nav-heading" id={`nav-${group}`}>
              {heading}
            </p>
          )}
          <ul className="nav" {...(heading && { 'aria-labelledby': `nav-${group}` })}>
            {PLACES.filter((place) => place.nav === group).map((place) => {
              const counted = place.count;
              const count = counted ? counts[counted] : undefined;
              return (
                <li key={place.path}>
                  <NavLink to={placeHref(companyId, place)}>
                    <span>{place.label}</span>
                    {counted && count !== undefined && count > 0 && (
                      <span className="count" aria-label={`${count} ${countLabel(counted)}`}>
                        {count}
                      </span>
                    )}
                  </NavLink>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
      <p className={`live live-${live}`} role="status">
        <span className="dot" aria-hidden="true" />{' '}
        {live === 'live' ? 'Live' : live === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
      </p>
      <SignOut />
    </nav>
  );
}

/** Set by Sign out, for the rest of this page's life. */
let signedOut = false;

/** Only for a browser session: a board key or local_trusted has nothing to sign out of. */
function SignOut() {
  const me = useQuery(meQuery());
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = useMutation({
    mutationFn: async () => {
      // Reads in flight answer 401 once the session ends; they must not turn this into "sign in
      // again to go back to …". Signing in again is a new page load (the login link), which resets this.
      signedOut = true;
      await queryClient.cancelQueries();
      await api.POST('/api/auth/logout');
    },
    onSuccess: async () => {
      queryClient.clear();
      await navigate('/sign-in?reason=signed-out', { replace: true });
    },
    // The session is still open (the server could not be reached, or refused): a 401 means sign in again.
    onError: () => {
      signedOut = false;
    },
  });
  if (me.data?.via !== 'session') return null;
  return (
    <>
      <button type="button" className="sign-out" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
        Sign out
      </button>
      {signOut.isError && <ErrorNotice error={signOut.error} title="You are still signed in" />}
    </>
  );
}

function countLabel(count: keyof SidebarCounts): string {
  return {
    openIssues: 'open issues',
    pendingApprovals: 'pending approvals',
    runningRuns: 'running runs',
    unreadInbox: 'unread',
  }[count];
}

function CompanySwitcher({ companyId }: { companyId: string }) {
  const companies = useQuery(companiesQuery());
  const navigate = useNavigate();
  const list = companies.data ?? [];
  return (
    <div className="company-switcher">
      <label htmlFor="company-switcher">Company</label>
      <select
        id="company-switcher"
        value={companyId}
        onChange={(event) => {
          const chosen = event.target.value;
          // void: a navigation's failures show in the route's error element.
          void navigate(chosen === '__new' ? '/onboarding' : `/c/${chosen}/dashboard`);
        }}
      >
        {list.map((company) => (
          <option key={company.id} value={company.id}>
            {company.name}
          </option>
        ))}
        <option value="__new">+ New company…</option>
      </select>
    </div>
  );
}
