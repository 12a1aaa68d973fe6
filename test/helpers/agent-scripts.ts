// Pieces of the agent scripts the browser tests run through the process adapter.

/**
 * The opening of an agent script (ESM source) that checks out the issue it was woken for, as an agent
 * does (so the run holds the issue), and prints the answer's status.
 */
export const CHECKOUT_ON_WAKE = `const env = process.env;
if (env.SERVICE_TASK_ID) {
  const res = await fetch(env.SERVICE_API_URL + '/api/issues/' + env.SERVICE_TASK_ID + '/checkout', {
    method: 'POST',
    headers: { authorization: 'Bearer ' + env.SERVICE_API_KEY, 'x-service-run-id': env.SERVICE_RUN_ID, 'content-type': 'application/json' },
    body: JSON.stringify({ agentId: env.SERVICE_AGENT_ID, expectedStatuses: ['todo'] }),
  });
  console.log('checkout answered ' + res.status);
}
`;
