// Every area's routes, registered in one place.
import { registerCompanyRoutes } from '../modules/companies/routes.ts';
import { registerSystemRoutes } from '../modules/system/routes.ts';
import { registerApprovalRoutes } from '../modules/approvals/routes.ts';
import { registerCommentRoutes } from '../modules/comments/routes.ts';
import { registerDocumentRoutes } from '../modules/documents/routes.ts';
import { registerAttachmentRoutes } from '../modules/attachments/routes.ts';
import { registerSecretRoutes } from '../modules/secrets/routes.ts';
import { registerActivityRoutes } from '../modules/activity/routes.ts';
import { registerAgentRoutes } from '../modules/agents/routes.ts';
import { registerSigningSecretRoutes } from '../modules/agents/signing-secret-routes.ts';
import { registerGoalRoutes } from '../modules/goals/routes.ts';
import { registerLabelRoutes } from '../modules/labels/routes.ts';
import { registerProjectRoutes } from '../modules/projects/routes.ts';
import { registerCheckoutRoutes } from '../modules/issues/checkout-routes.ts';
import { registerRunRoutes } from '../modules/runs/routes.ts';
import { registerRunIssueRoutes } from '../modules/issues/run-issues-routes.ts';
import { registerRunCompleteRoutes } from '../modules/runs/complete-routes.ts';
import { registerLiveRunRoutes } from '../modules/runs/live-runs.ts';
import { registerInboxRoutes } from '../modules/inbox/routes.ts';
import { registerIssueRoutes } from '../modules/issues/routes.ts';
import { registerFeedbackRoutes } from '../modules/feedback/routes.ts';
import { registerEventRoutes } from '../modules/events/routes.ts';
import { registerRoutineRoutes } from '../modules/routines/routes.ts';
import { registerPublicTriggerRoutes } from '../modules/routines/public-routes.ts';
import { registerCostRoutes } from '../modules/costs/routes.ts';
import { registerBudgetRoutes } from '../modules/budgets/routes.ts';
import { registerCompanyBudgetRoutes } from '../modules/companies/budget-routes.ts';
import { registerDashboardRoutes } from '../modules/dashboard/routes.ts';
import { registerCostSummaryRoutes } from '../modules/costs/summary-routes.ts';
import { registerFinanceRoutes } from '../modules/finance/routes.ts';
import { registerSkillRoutes } from '../modules/skills/routes.ts';
import { registerAgentSkillRoutes } from '../modules/agents/skill-routes.ts';
import { registerAdapterRoutes } from '../modules/adapter-registry/routes.ts';
import { registerPluginRoutes } from '../modules/plugins/routes.ts';
import type { HostApi } from '../modules/plugins/worker/host.ts';
import { registerPortabilityRoutes } from '../modules/portability/routes.ts';
import type { AdapterManager } from '../modules/adapter-registry/service.ts';
import type { App, AppDeps } from '../http/deps.ts';

/** Services built once per app and shared by routes (not part of AppDeps: buildApp makes them). */
export interface AppServices {
  adapters: AdapterManager;
  /** What plugin workers' host calls are answered with (src/engine/plugins/host-api.ts). */
  pluginHostApi: HostApi;
}

export async function registerRoutes(app: App, deps: AppDeps, services: AppServices): Promise<void> {
  registerSystemRoutes(app, deps);
  registerCompanyRoutes(app, deps);
  registerPortabilityRoutes(app, deps);
  registerFeedbackRoutes(app, deps);
  registerGoalRoutes(app, deps);
  registerLabelRoutes(app, deps);
  registerProjectRoutes(app, deps);
  registerAgentRoutes(app, deps);
  registerSigningSecretRoutes(app, deps);
  registerApprovalRoutes(app, deps);
  registerCommentRoutes(app, deps);
  registerDocumentRoutes(app, deps);
  registerAttachmentRoutes(app, deps);
  registerSecretRoutes(app, deps);
  registerActivityRoutes(app, deps);
  registerIssueRoutes(app, deps);
  registerCheckoutRoutes(app, deps);
  registerRunIssueRoutes(app, deps);
  registerRunRoutes(app, deps);
  registerRunCompleteRoutes(app, deps);
  registerLiveRunRoutes(app, deps);
  registerInboxRoutes(app, deps);
  registerEventRoutes(app, deps);
  registerRoutineRoutes(app, deps);
  registerPublicTriggerRoutes(app, deps);
  registerCostRoutes(app, deps);
  registerCompanyBudgetRoutes(app, deps);
  registerBudgetRoutes(app, deps);
  registerDashboardRoutes(app, deps);
  registerCostSummaryRoutes(app, deps);
  registerFinanceRoutes(app, deps);
  registerSkillRoutes(app, deps);
  registerAgentSkillRoutes(app, deps);
  registerAdapterRoutes(app, services.adapters);
  registerPluginRoutes(app, deps, services.pluginHostApi);
}
