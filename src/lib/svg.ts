// SVG sanitising for uploaded logos: scripts, event handlers, external references and styles go.
import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';

const window = new JSDOM('').window;
const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);

// Any href that leaves the document (http:, data:, javascript:, //host) is an external reference.
const EXTERNAL_REF = /^\s*(?!#)/;

purify.addHook('afterSanitizeAttributes', (node) => {
  for (const attr of ['href', 'xlink:href', 'src']) {
    const value = node.getAttribute(attr);
    if (value !== null && EXTERNAL_REF.test(value)) node.removeAttribute(attr);
  }
});

/** The sanitised SVG, or null when nothing drawable is left or the input is not an SVG document. */
export function sanitizeSvg(input: string): string | null {
  if (!/<svg[\s>]/i.test(input)) return null;
  const clean = purify.sanitize(input, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ['style', 'use', 'foreignObject', 'script', 'image', 'a'],
    FORBID_ATTR: ['style'],
  });
  if (!/^\s*<svg[\s>]/i.test(clean)) return null;
  // An <svg> with no child elements draws nothing: treat it as empty.
  const inner = clean.replace(/^\s*<svg[^>]*>/i, '').replace(/<\/svg>\s*$/i, '');
  if (!/<[a-zA-Z]/.test(inner)) return null;
  return clean;
}
