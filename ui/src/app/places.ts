// The board's places, defined once: the sidebar shows them (with their live counts), the command
// palette lists them, `g` then a key goes there, and the shortcut sheet shows those keys.
import { Bot, CircleDot, Inbox, LayoutDashboard, type LucideIcon } from 'lucide-react';
import type { SidebarCounts } from './counts';

export interface PlaceCommand {
  label: string;
  /** Under /c/{companyId}/, or absolute when it starts with '/'. */
  path: string;
  keywords: string[];
  /** The key after `g`. */
  goKey?: string;
  /** The sidebar group it is listed in; none: only in the palette. */
  nav?: 'work' | 'money' | 'company';
  /** The live count shown beside it in the sidebar. */
  count?: keyof SidebarCounts;
  /** On narrow screens, a tab of the bottom bar with this icon (the rest is under More). */
  tabIcon?: LucideIcon;
}

export const PLACES: PlaceCommand[] = [
  {
    label: 'Dashboard',
    path: 'dashboard',
    keywords: ['home', 'now', 'runs'],
    goKey: 'd',
    nav: 'work',
    count: 'runningRuns',
    tabIcon: LayoutDashboard,
  },
  {
    label: 'Inbox',
    path: 'inbox',
    keywords: ['waiting', 'failed'],
    goKey: 'i',
    nav: 'work',
    count: 'unreadInbox',
    tabIcon: Inbox,
  },
  {
    label: 'Issues',
    path: 'issues',
    keywords: ['tasks', 'board'],
    goKey: 's',
    nav: 'work',
    count: 'openIssues',
    tabIcon: CircleDot,
  },
  { label: 'Agents', path: 'agents', keywords: ['team', 'workers'], goKey: 'a', nav: 'work', tabIcon: Bot },
  { label: 'Org chart', path: 'org', keywords: ['organisation', 'reports'], goKey: 'o', nav: 'work' },
  {
    label: 'Approvals',
    path: 'approvals',
    keywords: ['pending', 'hires'],
    goKey: 'p',
    nav: 'work',
    count: 'pendingApprovals',
  },
  { label: 'Activity', path: 'activity', keywords: ['audit', 'log', 'history'], goKey: 'v', nav: 'work' },
  { label: 'Costs', path: 'costs', keywords: ['spend', 'tokens', 'money'], goKey: 'm', nav: 'money' },
  { label: 'Budgets', path: 'budgets', keywords: ['limits', 'hard stop', 'incidents'], goKey: 'b', nav: 'money' },
  { label: 'Finance', path: 'finance', keywords: ['finance events', 'invoices', 'ledger'], nav: 'money' },
  { label: 'Routines', path: 'routines', keywords: ['schedules', 'cron', 'webhooks'], goKey: 'r', nav: 'company' },
  { label: 'Goals', path: 'goals', keywords: ['objectives'], nav: 'company' },
  { label: 'Projects', path: 'projects', keywords: ['workspaces'], nav: 'company' },
  { label: 'Skills', path: 'skills', keywords: ['library', 'import'], nav: 'company' },
  { label: 'Plugins', path: 'plugins', keywords: ['extensions', 'integrations', 'install'], nav: 'company' },
  { label: 'Secrets', path: 'secrets', keywords: ['keys', 'credentials', 'env'], nav: 'company' },
  { label: 'Company settings', path: 'settings', keywords: ['name', 'brand', 'logo', 'archive'], nav: 'company' },
  {
    label: 'Export and import',
    path: 'portability',
    keywords: ['export', 'import', 'bundle', 'zip', 'template'],
    nav: 'company',
  },
  { label: 'Instance settings', path: 'instance', keywords: ['adapters', 'doctor', 'version'], nav: 'company' },
  { label: 'New company', path: '/onboarding', keywords: ['onboarding', 'create company', 'start'] },
];

export const placeHref = (companyId: string, place: PlaceCommand): string =>
  place.path.startsWith('/') ? place.path : `/c/${companyId}/${place.path}`;
