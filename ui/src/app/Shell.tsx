// The frame of every signed-in page: the sidebar (company switcher, navigation with live counts,
// the live state) and the page; on narrow screens a bottom tab bar instead, whose More opens a sheet
// with the rest. Outside a company it shows the page alone (onboarding).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Keyboard, LogOut, Menu as MenuIcon, Monitor, Moon, Plus, Sun } from 'lucide-react';
import { useEffect, useState } from 'react';
import { NavLink, Navigate, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError, api, setUnauthorizedListener } from '../api/client';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { Select } from '../components/ui/Combobox';
import { Sheet } from '../components/ui/Dialog';
import { Icon } from '../components/ui/Icon';
import { Menu, MenuItem, MenuLabel, MenuRadioGroup, MenuSeparator } from '../components/ui/Menu';
import { setThemePreference, THEME_PREFERENCES, useThemePreference } from '../lib/theme';
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
        <TabBar companyId={companyId} />
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
  return (
    <nav className="sidebar" aria-label="Main">
      <CompanySwitcher companyId={companyId} />
      <NavGroups companyId={companyId} places={PLACES} />
      <LiveState />
      <UserMenu />
    </nav>
  );
}

/** The places of the sidebar's groups, each with its live count; `onNavigate` runs on a click (closes a sheet). */
function NavGroups({
  companyId,
  places,
  onNavigate,
}: {
  companyId: string;
  places: PlaceCommand[];
  onNavigate?: () => void;
}) {
  const counts = useSidebarCounts(companyId);
  return NAV_GROUPS.map(({ group, heading }) => {
    const listed = places.filter((place) => place.nav === group);
    if (listed.length === 0) return null;
    return (
      <div key={group} className="nav-group">
        {heading && (
          <p className="nav-heading" id={`nav-${group}${onNavigate ? '-more' : ''}`}>
            {heading}
          </p>
        )}
        <ul className="nav" {...(heading && { 'aria-labelledby': `nav-${group}${onNavigate ? '-more' : ''}` })}>
          {listed.map((place) => (
            <li key={place.path}>
              <NavLink to={placeHref(companyId, place)} onClick={onNavigate}>
                <span>{place.label}</span>
                <PlaceCount count={place.count} counts={counts} />
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    );
  });
}

function PlaceCount({ count, counts }: { count: PlaceCommand['count']; counts: Partial<SidebarCounts> }) {
  const value = count ? counts[count] : undefined;
  if (!count || value === undefined || value <= 0) return null;
  return (
    <span className="count" aria-label={`${value} ${countLabel(count)}`}>
      {value}
    </span>
  );
}

function LiveState() {
  const live = useLiveState();
  return (
    <p className={`live live-${live}`} role="status">
      <span className="dot" aria-hidden="true" />{' '}
      {live === 'live' ? 'Live' : live === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
    </p>
  );
}

/**
 * Narrow screens: the four places used most as tabs at the bottom, and More, a sheet with the rest of
 * the navigation, the company switcher, the live state and the user menu. CSS shows it at <= 720 px only.
 */
function TabBar({ companyId }: { companyId: string }) {
  const counts = useSidebarCounts(companyId);
  const [more, setMore] = useState(false);
  const tabs = PLACES.filter((place) => place.tabIcon);
  return (
    <nav className="tab-bar" aria-label="Main">
      <ul>
        {tabs.map((place) => (
          <li key={place.path}>
            <NavLink to={placeHref(companyId, place)}>
              {place.tabIcon && <Icon icon={place.tabIcon} size={20} />}
              <span>{place.label}</span>
              <PlaceCount count={place.count} counts={counts} />
            </NavLink>
          </li>
        ))}
        <li>
          <button type="button" aria-haspopup="dialog" aria-expanded={more} onClick={() => setMore(true)}>
            <Icon icon={MenuIcon} size={20} />
            <span>More</span>
          </button>
        </li>
      </ul>
      <Sheet open={more} onOpenChange={setMore} title="More" side="bottom">
        <div className="more-sheet">
          <CompanySwitcher companyId={companyId} />
          <NavGroups
            companyId={companyId}
            places={PLACES.filter((place) => !place.tabIcon)}
            onNavigate={() => setMore(false)}
          />
          <LiveState />
          <UserMenu />
        </div>
      </Sheet>
    </nav>
  );
}

/** Set by Sign out, for the rest of this page's life. */
let signedOut = false;

const THEME_ICONS = { system: Monitor, light: Sun, dark: Moon } as const;

/**
 * Who is signed in, at the bottom of the sidebar: the colour scheme, the keyboard shortcuts and, for a
 * browser session (a board key or local_trusted has nothing to sign out of), Sign out.
 */
function UserMenu() {
  const me = useQuery(meQuery());
  const theme = useThemePreference();
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
  // The API names no person yet: the board user is the owner or a member of the instance.
  const who =
    me.data?.via === 'local_trusted'
      ? 'Local board'
      : me.data?.user.isInstanceOwner
        ? 'Instance owner'
        : 'Board member';
  return (
    <div className="user-menu">
      <Menu
        side="top"
        trigger={
          <button type="button" className="btn btn-ghost btn-md user-menu-trigger">
            <span className="user-avatar" aria-hidden="true">
              {who[0]}
            </span>
            <span className="visually-hidden">Account menu: </span>
            <span className="menu-item-label">{who}</span>
          </button>
        }
      >
        <MenuLabel>Theme</MenuLabel>
        <MenuRadioGroup
          value={theme}
          onValueChange={setThemePreference}
          options={THEME_PREFERENCES.map((option) => ({ ...option, icon: THEME_ICONS[option.value] }))}
        />
        <MenuSeparator />
        <MenuItem
          icon={Keyboard}
          shortcut="?"
          // The shortcut sheet belongs to GlobalShortcuts, which opens it on `?`: the item presses it.
          onSelect={() => window.dispatchEvent(new KeyboardEvent('keydown', { key: '?' }))}
        >
          Keyboard shortcuts
        </MenuItem>
        {me.data?.via === 'session' && (
          <>
            <MenuSeparator />
            <MenuItem icon={LogOut} disabled={signOut.isPending} onSelect={() => signOut.mutate()}>
              Sign out
            </MenuItem>
          </>
        )}
      </Menu>
      {signOut.isError && <ErrorNotice error={signOut.error} title="You are still signed in" />}
    </div>
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
      <Select
        aria-label="Company"
        className="btn-ghost sidebar-switcher"
        value={companyId}
        searchPlaceholder="Find a company…"
        // void: a navigation's failures show in the route's error element.
        onChange={(chosen) => void navigate(`/c/${chosen}/dashboard`)}
        options={list.map((company) => ({
          value: company.id,
          label: company.name,
          leading: <CompanySquare name={company.name} brandColor={company.brandColor} logoUrl={company.logoUrl} />,
        }))}
        footer={{ label: 'New company…', icon: Plus, onSelect: () => void navigate('/onboarding') }}
      />
    </div>
  );
}

/** A company's mark: its logo when it has one, else its initial on its brand colour. */
function CompanySquare({
  name,
  brandColor,
  logoUrl,
}: {
  name: string;
  brandColor: string | null;
  logoUrl: string | null;
}) {
  if (logoUrl) return <img className="company-square" src={logoUrl} alt="" />;
  // The initial is drawn by CSS (data-initial): decoration, kept out of the switcher's text and name.
  return (
    <span
      className={brandColor && isLight(brandColor) ? 'company-square company-square-light' : 'company-square'}
      style={brandColor ? { background: brandColor } : undefined}
      data-initial={name.trim()[0]?.toUpperCase() ?? '?'}
      aria-hidden="true"
    />
  );
}

/** Whether a #rrggbb colour is light enough to need dark text (relative luminance above the midpoint). */
function isLight(hex: string): boolean {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) return false;
  const linear = (part: string | undefined) => {
    const channel = Number.parseInt(part ?? '0', 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(match[1]) + 0.7152 * linear(match[2]) + 0.0722 * linear(match[3]) > 0.179;
}
