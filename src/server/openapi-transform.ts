// The OpenAPI document's transform: fastify-type-provider-zod's, plus the multipart bodies that
// routes describe with `multipartBody` (./openapi.ts) and that Fastify itself must not validate.
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const openApiTransform: typeof jsonSchemaTransform = (document) => {
  const out = jsonSchemaTransform(document);
  const transformed = out.schema as Record<string, unknown> | undefined;
  if (transformed && 'multipartBody' in transformed) {
    const { multipartBody: body, ...rest } = transformed;
    return { ...out, schema: { ...rest, body } };
  }
  return out;
};
