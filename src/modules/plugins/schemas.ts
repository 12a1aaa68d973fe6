import { z } from 'zod';

export const pluginParams = z.object({ pluginId: z.uuid().describe('plugin UUID (the record `id`)') });
export const companyPluginParams = z.object({
  companyId: z.uuid().describe('company UUID'),
  pluginId: z.uuid().describe('plugin UUID'),
});
export const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });

const packageName = z
  .string()
  .trim()
  .min(1)
  .max(1000)
  .describe('an npm package name (`my-plugin`, `@scope/my-plugin`) or an absolute local path to a package directory');
const version = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('npm version or range (ignored for a local path, whose manifest says its version)');
const isLocalPath = z
  .boolean()
  .describe('true: `packageName` is a local path; default: true exactly when it is an absolute path');

export const installBody = z
  .object({ packageName, version: version.optional(), isLocalPath: isLocalPath.optional() })
  .strict();

export const upgradeBody = z
  .object({
    packageName: packageName.optional(),
    version: version.optional(),
    isLocalPath: isLocalPath.optional(),
  })
  .strict()
  .refine((body) => body.packageName !== undefined || (body.version === undefined && body.isLocalPath === undefined), {
    message: '`version` and `isLocalPath` go with a `packageName`',
    path: ['packageName'],
  });

export const consentBody = z
  .object({
    capabilities: z
      .array(z.string().min(1).max(100))
      .max(50)
      .describe(
        "the plugin manifest's capabilities, every one of them: consent is explicit, so the list must equal the manifest's (order does not matter)",
      ),
  })
  .strict();
