// SVG sanitising for uploaded logos: scripts, event handlers, external references and styles go.
import type { DOMPurify } from 'dompurify';

const REF_ATTRS = new Set(['href', 'xlink:href', 'src']);
// url(...) in presentation attributes (fill, filter, mask, clip-path, marker-*) can load remote documents.
const URL_FUNCTION = /url\(\s*['"]?\s*([^'")\s]*)/gi;

/** Only same-document fragments ("#id") are allowed: http:, data:, javascript: and //host all leave the file. */
function isExternal(ref: string): boolean {
  return !ref.trim().startsWith('#');
}

function hasExternalUrl(value: string): boolean {
  for (const match of value.matchAll(URL_FUNCTION)) if (isExternal(match[1] ?? '')) return true;
  return false;
}

// jsdom costs tens of MiB of memory; it is loaded on the first SVG upload, not at start.
let purifier: Promise<DOMPurify> | null = null;

function loadPurifier(): Promise<DOMPurify> {
  purifier ??= (async () => {
    const [{ default: createDOMPurify }, { JSDOM }] = await Promise.all([import('dompurify'), import('jsdom')]);
    const purify = createDOMPurify(new JSDOM('').window as unknown as Parameters<typeof createDOMPurify>[0]);
    purify.addHook('afterSanitizeAttributes', (node) => {
      for (const attr of Array.from(node.attributes ?? [])) {
        if ((REF_ATTRS.has(attr.name) && isExternal(attr.value)) || hasExternalUrl(attr.value))
          node.removeAttribute(attr.name);
      }
    });
    return purify;
  })();
  return purifier;
}

// Files from editors start with an XML declaration and a DOCTYPE; the HTML parser DOMPurify uses would
// turn them into stray text, so they go first. Entity declarations (billion laughs, XXE) are refused outright.
const XML_PROLOG = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE[^>[]*>\s*)?/i;

/** The sanitised SVG, or null when nothing drawable is left or the input is not a safe SVG document. */
export async function sanitizeSvg(input: string): Promise<string | null> {
  if (/<!ENTITY/i.test(input)) return null;
  const body = input.replace(XML_PROLOG, '');
  if (!/^<svg[\s>]/i.test(body)) return null;
  const purify = await loadPurifier();
  const clean = purify.sanitize(body, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ['style', 'use', 'foreignObject', 'script', 'image', 'feImage', 'a'],
    FORBID_ATTR: ['style'],
  });
  if (!/^\s*<svg[\s>]/i.test(clean)) return null;
  // An <svg> with no child elements draws nothing: treat it as empty.
  const inner = clean.replace(/^\s*<svg[^>]*>/i, '').replace(/<\/svg>\s*$/i, '');
  if (!/<[a-zA-Z]/.test(inner)) return null;
  return clean;
}
