// Every area's routes, registered in one place.
import { registerCompanyRoutes } from '../modules/companies/routes.ts';
import { registerSystemRoutes } from '../modules/system/routes.ts';
import type { App, AppDeps } from './app.ts';

export async function registerRoutes(app: App, deps: AppDeps): Promise<void> {
  registerSystemRoutes(app, deps);
  registerCompanyRoutes(app, deps);
}
