// A project's address; shared by the list and the detail page.
export const projectPath = (companyId: string, projectId: string) => `/c/${companyId}/projects/${projectId}`;
