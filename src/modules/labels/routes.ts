// Labels (SPEC: "Endpoints for labels ... not shown"; this design is in docs/api.md). A company's
// labels are read by every caller with access to it; who may write is the `label.*` rows of the
// permission table (policy.ts).
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import { deletedLabelResponse, labelResponse, presentLabel } from './present.ts';
import { createLabelBody, LABEL_COLORS, MAX_LABELS_PER_COMPANY, patchLabelBody } from './schemas.ts';
import { createLabel, deleteLabel, listLabels, updateLabel } from './service.ts';

const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });
const labelParams = z.object({ labelId: z.uuid().describe('label UUID') });
const tags = ['labels'];

const READ = 'Any caller with access to the company: its board members and its agents.';
const COMPANY_ERRORS = () => errors([403, "the company is not one of the caller's"], [404, 'no such company']);
const NAME_TAKEN =
  'another label of the company has this name, whatever its case (`details.field` is `name`, `details.labelId` names the label)';
const COLOR_RULE = `\`color\` is not one of ${LABEL_COLORS.join(', ')}`;

const createBody = createLabelBody.meta({ examples: [{ name: 'Bug', color: 'danger' }] });
const patchBody = patchLabelBody.meta({ examples: [{ name: 'Defect' }] });

export function registerLabelRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/companies/:companyId/labels',
    {
      schema: {
        tags,
        summary: "List a company's labels",
        description: `Every label of the company (at most ${MAX_LABELS_PER_COMPANY}), by name whatever its case. ${READ}`,
        params: companyParams,
        response: {
          200: z.array(labelResponse).describe('The labels, by name'),
          ...authenticated(),
          ...COMPANY_ERRORS(),
        },
      },
    },
    async (request) => (await listLabels(contextOf(db, request), request.params.companyId)).map(presentLabel),
  );

  app.post(
    '/api/companies/:companyId/labels',
    {
      schema: {
        tags,
        summary: 'Create a label',
        description: `\`name\` is required (1 to 40 characters, unique in the company whatever its case); \`color\` defaults to neutral. A company holds at most ${MAX_LABELS_PER_COMPANY} labels. ${READ}`,
        params: companyParams,
        body: createBody,
        response: {
          201: labelResponse.describe('The label, created'),
          ...authenticated(),
          ...COMPANY_ERRORS(),
          ...errors(
            [409, NAME_TAKEN],
            [422, `${COLOR_RULE}, or the company already holds ${MAX_LABELS_PER_COMPANY} labels`],
          ),
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(presentLabel(await createLabel(contextOf(db, request), request.params.companyId, request.body))),
  );

  app.patch(
    '/api/labels/:labelId',
    {
      schema: {
        tags,
        summary: 'Rename or recolour a label',
        description: `\`name\` and/or \`color\`; omitted fields stay unchanged. Issues carrying the label keep it. ${READ}`,
        params: labelParams,
        body: patchBody,
        response: {
          200: labelResponse.describe('The label, updated'),
          ...authenticated(),
          ...errors(
            [403, 'the label belongs to another company'],
            [404, 'no such label'],
            [409, NAME_TAKEN],
            [422, COLOR_RULE],
          ),
        },
      },
    },
    async (request) => presentLabel(await updateLabel(contextOf(db, request), request.params.labelId, request.body)),
  );

  app.delete(
    '/api/labels/:labelId',
    {
      schema: {
        tags,
        summary: 'Delete a label',
        description:
          "Deletes the label and removes it from every issue that carries it, in one transaction; answers the deleted label with how many issues lost it. The board or the company's CEO agent only.",
        params: labelParams,
        response: {
          200: deletedLabelResponse,
          ...authenticated(),
          ...errors(
            [403, "the caller is an agent other than the company's CEO, or the label belongs to another company"],
            [404, 'no such label'],
          ),
        },
      },
    },
    async (request) => {
      const deleted = await deleteLabel(contextOf(db, request), request.params.labelId);
      return { ...presentLabel(deleted), removedFromIssues: deleted.removedFromIssues };
    },
  );
}
