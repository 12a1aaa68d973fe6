// Markdown from people and agents, rendered safely: no raw HTML at all (react-markdown builds React
// elements and `skipHtml` drops HTML in the source), and links only to http(s), mailto and in-app
// paths, opened without handing the board's window to the target.
import ReactMarkdown, { type Components } from 'react-markdown';

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
};

export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown skipHtml components={components} urlTransform={(url) => (SAFE_URL.test(url) ? url : '')}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
