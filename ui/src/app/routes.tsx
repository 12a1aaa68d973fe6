// The board's pages. Every page is its own chunk (lazy), so the first screen loads only the shell.
import { createBrowserRouter, redirect } from 'react-router';
import { Shell } from './Shell';
import { RouteError } from '../components/RouteError';
import { HomeRedirect } from './HomeRedirect';
import { Loading } from '../components/Loading';

/** Shown while the first page's chunk loads on a fresh start (the router renders nothing before it otherwise). */
const starting = <Loading label="Loading the board" />;

export const router = createBrowserRouter([
  {
    path: '/sign-in',
    hydrateFallbackElement: starting,
    lazy: () => import('../pages/sign-in/SignInPage').then((m) => ({ Component: m.SignInPage })),
  },
  {
    // Every primitive in every state, for development and the browser tests: its own chunk, linked
    // from nowhere, and showing no data (docs/ui.md, "Design system").
    path: '/_design',
    hydrateFallbackElement: starting,
    lazy: () => import('../pages/design/DesignPage').then((m) => ({ Component: m.DesignPage })),
  },
  {
    path: '/',
    Component: Shell,
    hydrateFallbackElement: starting,
    errorElement: <RouteError />,
    children: [
      { index: true, Component: HomeRedirect },
      {
        path: 'onboarding',
        lazy: () => import('../pages/onboarding/OnboardingPage').then((m) => ({ Component: m.OnboardingPage })),
      },
      {
        path: 'c/:companyId',
        children: [
          { index: true, loader: ({ params }) => redirect(`/c/${params.companyId}/dashboard`) },
          {
            path: 'dashboard',
            lazy: () => import('../pages/dashboard/DashboardPage').then((m) => ({ Component: m.DashboardPage })),
          },
          { path: 'inbox', lazy: () => import('../pages/inbox/InboxPage').then((m) => ({ Component: m.InboxPage })) },
          {
            path: 'issues',
            lazy: () => import('../pages/issues/IssuesPage').then((m) => ({ Component: m.IssuesPage })),
          },
          {
            path: 'issues/:issueId',
            lazy: () => import('../pages/issue/IssuePage').then((m) => ({ Component: m.IssuePage })),
          },
          { path: 'runs/:runId', lazy: () => import('../pages/run/RunPage').then((m) => ({ Component: m.RunPage })) },
          {
            path: 'agents',
            lazy: () => import('../pages/agents/AgentsPage').then((m) => ({ Component: m.AgentsPage })),
          },
          {
            path: 'agents/:agentId/:tab?',
            lazy: () => import('../pages/agent/AgentPage').then((m) => ({ Component: m.AgentPage })),
          },
          { path: 'org', lazy: () => import('../pages/org/OrgPage').then((m) => ({ Component: m.OrgPage })) },
          {
            path: 'approvals',
            lazy: () => import('../pages/approvals/ApprovalsPage').then((m) => ({ Component: m.ApprovalsPage })),
          },
          {
            path: 'approvals/:approvalId',
            lazy: () => import('../pages/approval/ApprovalPage').then((m) => ({ Component: m.ApprovalPage })),
          },
          {
            path: 'activity',
            lazy: () => import('../pages/activity/ActivityPage').then((m) => ({ Component: m.ActivityPage })),
          },
          { path: 'costs', lazy: () => import('../pages/costs/CostsPage').then((m) => ({ Component: m.CostsPage })) },
          {
            path: 'budgets',
            lazy: () => import('../pages/budgets/BudgetsPage').then((m) => ({ Component: m.BudgetsPage })),
          },
          {
            path: 'finance',
            lazy: () => import('../pages/finance/FinancePage').then((m) => ({ Component: m.FinancePage })),
          },
          {
            path: 'routines',
            lazy: () => import('../pages/routines/RoutinesPage').then((m) => ({ Component: m.RoutinesPage })),
          },
          {
            path: 'routines/:routineId',
            lazy: () => import('../pages/routine/RoutinePage').then((m) => ({ Component: m.RoutinePage })),
          },
          { path: 'goals', lazy: () => import('../pages/goals/GoalsPage').then((m) => ({ Component: m.GoalsPage })) },
          {
            path: 'projects',
            lazy: () => import('../pages/projects/ProjectsPage').then((m) => ({ Component: m.ProjectsPage })),
          },
          {
            path: 'projects/:projectId',
            lazy: () => import('../pages/project/ProjectPage').then((m) => ({ Component: m.ProjectPage })),
          },
          {
            path: 'skills',
            lazy: () => import('../pages/skills/SkillsPage').then((m) => ({ Component: m.SkillsPage })),
          },
          {
            path: 'skills/:skillId',
            lazy: () => import('../pages/skill/SkillPage').then((m) => ({ Component: m.SkillPage })),
          },
          {
            path: 'secrets',
            lazy: () => import('../pages/secrets/SecretsPage').then((m) => ({ Component: m.SecretsPage })),
          },
          {
            path: 'settings',
            lazy: () =>
              import('../pages/settings/CompanySettingsPage').then((m) => ({ Component: m.CompanySettingsPage })),
          },
          {
            path: 'plugins/*',
            lazy: () => import('../pages/plugins/PluginsArea').then((m) => ({ Component: m.PluginsArea })),
          },
          {
            path: 'portability',
            lazy: () => import('../pages/portability/PortabilityPage').then((m) => ({ Component: m.PortabilityPage })),
          },
          {
            path: 'instance',
            lazy: () =>
              import('../pages/instance/InstanceSettingsPage').then((m) => ({ Component: m.InstanceSettingsPage })),
          },
          // An unknown page of a company stays in the company's frame (its sidebar) rather than the bare one.
          {
            path: '*',
            lazy: () => import('../pages/not-found/NotFoundPage').then((m) => ({ Component: m.NotFoundPage })),
          },
        ],
      },
      { path: '*', lazy: () => import('../pages/not-found/NotFoundPage').then((m) => ({ Component: m.NotFoundPage })) },
    ],
  },
]);
