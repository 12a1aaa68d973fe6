// The board's typed client is generated from the server's OpenAPI document and committed. This fails
// when the two differ, so a route or field changed on the server cannot leave the board calling the
// old shape. `npm run ui:api` (UPDATE_UI_API=1) writes the file instead of comparing.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { test } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { UI_API_SCHEMA_FILE, renderUiApiSchema } from './helpers/ui-api-schema.ts';

const t = await useTestApp();

test('the committed ui/src/api/schema.d.ts is what the OpenAPI document generates', async () => {
  const document = (await t.request('GET', '/api/openapi.json')).body;
  const generated = await renderUiApiSchema(document);
  if (process.env.UPDATE_UI_API === '1') {
    await writeFile(UI_API_SCHEMA_FILE, generated);
    return;
  }
  const committed = await readFile(UI_API_SCHEMA_FILE, 'utf8').catch(() => '');
  assert.ok(
    committed === generated,
    'ui/src/api/schema.d.ts is out of date with the API: run `npm run ui:api` and commit the result',
  );
});
