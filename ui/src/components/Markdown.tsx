// Markdown from people and agents, rendered safely: no raw HTML at all (react-markdown builds React
// elements and `skipHtml` drops HTML in the source), and links only to http(s), mailto and in-app
// paths, opened without handing the board's window to the target. GitHub-flavoured (remark-gfm):
// task lists (read-only checkboxes), tables (each in its own sideways-scrolling box, so a wide one
// never widens the page), strikethrough and autolinks, which pass the same link rule.
import type { ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { TableScroll } from './TableScroll';

const SAFE_URL = /^(https?:|mailto:|\/(?!\/)|#)/i;

const components: Components = {
  a: ({ href, children }) =>
    href && SAFE_URL.test(href) ? (
      <a href={href} {...(/^https?:/i.test(href) && { target: '_blank', rel: 'noopener noreferrer nofollow' })}>
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  img: ({ alt }) => <span className="muted">[image: {alt}]</span>,
  table: ({ children }) => (
    <TableScroll label="Table">
      <table>{children}</table>
    </TableScroll>
  ),
  // A task list's box shows the state written in the text; ticking it here would change nothing.
  input: ({ type, checked }) =>
    type === 'checkbox' ? (
      <input type="checkbox" checked={Boolean(checked)} disabled readOnly aria-label={checked ? 'Done' : 'Not done'} />
    ) : null,
};

const REMARK_PLUGINS = [remarkGfm];

type HeadingTag = 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6';
const HEADINGS: HeadingTag[] = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/**
 * Headings from `#` down start at `headingLevel` (default 1), so text shown under a page's own
 * headings keeps the outline in order (a document's `# Plan` under the page's h1 and h2 is an h3).
 */
function shiftedHeadings(headingLevel: number): Components {
  return Object.fromEntries(
    HEADINGS.map((tag, index) => {
      // Past h6 there is no deeper heading: those stay h6.
      const Shifted = HEADINGS[index + headingLevel - 1] ?? 'h6';
      return [tag, ({ children }: { children?: ReactNode }) => <Shifted>{children}</Shifted>];
    }),
  );
}

export function Markdown({ text, headingLevel = 1 }: { text: string; headingLevel?: number }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        skipHtml
        remarkPlugins={REMARK_PLUGINS}
        components={headingLevel === 1 ? components : { ...components, ...shiftedHeadings(headingLevel) }}
        urlTransform={(url) => (SAFE_URL.test(url) ? url : '')}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
