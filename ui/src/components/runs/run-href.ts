// Where a run is shown: its own page. Every "X's run" link in the board goes through here.
export const runHref = (companyId: string, runId: string): string => `/c/${companyId}/runs/${runId}`;
