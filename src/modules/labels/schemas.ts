import { z } from 'zod';

/** The tones of the board's palette (ui/src/styles.css tokens): a label's colour is one of these words. */
export const LABEL_COLORS = ['neutral', 'info', 'live', 'success', 'warning', 'danger', 'violet'] as const;
export type LabelColor = (typeof LABEL_COLORS)[number];

/** Labels a company may have: plenty for a vocabulary, few enough to list and pick from in one answer. */
export const MAX_LABELS_PER_COMPANY = 200;
export const MAX_LABEL_NAME = 40;

const COLOR_RULE = `one of ${LABEL_COLORS.join(', ')} (422 otherwise)`;

export const createLabelBody = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(MAX_LABEL_NAME)
    .describe(`1 to ${MAX_LABEL_NAME} characters, unique in the company whatever the case (409 otherwise)`),
  // A plain string, checked by the service: an unknown colour is a rule of labels (422), not a malformed body.
  color: z.string().max(40).optional().describe(`${COLOR_RULE}; default neutral`),
});

export const patchLabelBody = createLabelBody.partial();

export type CreateLabel = z.infer<typeof createLabelBody>;
export type PatchLabel = z.infer<typeof patchLabelBody>;
