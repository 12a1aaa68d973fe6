// What an inbound delivery becomes: the issue's title and description, from a JSON body
// (`{ "title", "description" }`, or the common `subject`/`text`/`message` fields) or from plain text
// (the first line is the title, the rest the description).

const TITLE_MAX = 200;
const DESCRIPTION_MAX = 20_000;

const text = (value) => (typeof value === 'string' ? value.trim() : '');
const cut = (value, max) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

/** `{ title, description }` for the issue a delivery creates; `title` is never empty. */
export function issueFromDelivery(delivery, titlePrefix = '') {
  const json = delivery.json !== null && typeof delivery.json === 'object' && !Array.isArray(delivery.json) ? delivery.json : null;
  let title;
  let description;
  if (json) {
    title = text(json.title) || text(json.subject) || text(json.name);
    description = text(json.description) || text(json.text) || text(json.message) || text(json.body);
    if (!description) description = `\`\`\`json\n${JSON.stringify(json, null, 2)}\n\`\`\``;
  } else {
    const [first = '', ...rest] = text(delivery.body).split('\n');
    title = first.trim();
    description = rest.join('\n').trim();
  }
  title = cut(`${titlePrefix}${title || `Inbound delivery ${delivery.deliveryId}`}`, TITLE_MAX);
  description = cut(`${description}\n\n_Received by the inbound-hook plugin, delivery ${delivery.deliveryId}._`.trim(), DESCRIPTION_MAX);
  return { title, description };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The config's problems, as validateConfig answers them. */
export function configErrors(config) {
  const errors = [];
  if (typeof config?.agentId !== 'string' || !UUID.test(config.agentId))
    errors.push('agentId: the id of the agent to wake (a UUID) is required');
  if (config?.projectId !== undefined && (typeof config.projectId !== 'string' || !UUID.test(config.projectId)))
    errors.push('projectId: a project id (a UUID), or leave it out');
  return errors;
}
