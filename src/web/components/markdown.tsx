import { memo, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { safeLinkHref } from '@web/lib/safe-href';

/**
 * Renders user text (course descriptions, bios) as Markdown: CommonMark plus GitHub's
 * tables, strikethrough, task lists and bare links.
 *
 * Safe by construction: react-markdown builds React elements, never an HTML string, and
 * without rehype-raw it shows raw HTML as text, so `<script>` or `<img onerror=…>` appear
 * literally. Links are kept only for http(s) and mailto: targets and open in a new tab
 * with rel="noopener noreferrer"; any other target (javascript:, data:, relative paths)
 * leaves the link text as plain text. Images are shown as links: a description must not
 * make a reader's browser fetch a third party's file.
 *
 * Imported only by lazy pages, so the library stays out of the /login bundle.
 */

/** Beyond this nesting (quotes, lists) content is flattened: a hostile text cannot exhaust the stack. */
const MAX_DEPTH = 8;

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

const NESTING = new Set(['blockquote', 'list', 'listItem']);

/**
 * A single newline in a paragraph is a line break (as people type in a text box), and
 * blocks nested deeper than MAX_DEPTH are lifted into their parent.
 */
function remarkAgoraText(options: { softBreaks?: boolean } = {}) {
  const breaks = options.softBreaks !== false;
  return (tree: MdNode) => {
    const stack: { node: MdNode; depth: number }[] = [{ node: tree, depth: 0 }];
    while (stack.length > 0) {
      const { node, depth } = stack.pop()!;
      if (!node.children) continue;
      const out: MdNode[] = [];
      for (const child of node.children) {
        if (breaks && child.type === 'text' && child.value?.includes('\n')) {
          child.value.split('\n').forEach((part, i) => {
            if (i > 0) out.push({ type: 'break' });
            if (part) out.push({ type: 'text', value: part });
          });
        } else if (NESTING.has(child.type) && depth >= MAX_DEPTH && child.children) {
          out.push(...flatten(child));
        } else {
          out.push(child);
        }
      }
      node.children = out;
      for (const child of out) stack.push({ node: child, depth: NESTING.has(child.type) ? depth + 1 : depth });
    }
  };
}

/** The non-nesting blocks under a node, in order, without recursion. */
function flatten(root: MdNode): MdNode[] {
  const out: MdNode[] = [];
  const stack: MdNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (NESTING.has(node.type) && node.children) stack.push(...[...node.children].reverse());
    else out.push(node);
  }
  return out;
}

const linkClass = 'font-medium text-brand-700 underline decoration-brand-300 underline-offset-2 hover:text-brand-800';

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow ugc" className={linkClass}>
      {children}
    </a>
  );
}

const HEADING_STYLES = [
  'text-2xl font-bold',
  'text-xl font-bold',
  'text-lg font-semibold',
  'text-base font-semibold',
  'text-sm font-semibold',
  'text-sm font-semibold uppercase tracking-wide',
];

const headingSets = new Map<string, Components>();

/** The depth of the source's top heading ("##" when it has no "#"), 1 when it has none. */
function topHeadingDepth(source: string): number {
  let top = 6;
  for (const [, hashes] of source.matchAll(/^ {0,3}(#{1,6})[ \t]/gm)) top = Math.min(top, hashes.length);
  return top === 6 && !/^ {0,3}#{6}[ \t]/m.test(source) ? 1 : top;
}

/**
 * Heading components for a base level, made once so React keeps their identity across
 * renders. The source's top heading becomes `baseLevel`: a description whose headings start
 * at "##" does not skip a level (h2 then h4) under the page's section heading.
 */
function headings(baseLevel: number, top: number): Components {
  const key = `${baseLevel}:${top}`;
  const cached = headingSets.get(key);
  if (cached) return cached;
  const out: Components = {};
  for (let level = 1; level <= 6; level++) {
    const Tag = `h${Math.min(6, Math.max(baseLevel, baseLevel + level - top))}` as 'h2';
    out[`h${level}` as 'h1'] = ({ children }) => (
      <Tag className={`mt-6 mb-2 text-slate-900 first:mt-0 ${HEADING_STYLES[level - 1]}`}>{children}</Tag>
    );
  }
  headingSets.set(key, out);
  return out;
}

const BLOCKS: Components = {
  p: ({ children }) => <p className="my-3 first:mt-0 last:mb-0">{children}</p>,
  a: ({ href, children }) => (href ? <ExternalLink href={href}>{children}</ExternalLink> : <>{children}</>),
  img: ({ src, alt }) => (typeof src === 'string' && src ? <ExternalLink href={src}>{alt || src}</ExternalLink> : <>{alt}</>),
  strong: ({ children }) => <strong className="font-semibold text-slate-900">{children}</strong>,
  code: ({ className, children }) => <code className={className}>{children}</code>,
  pre: ({ children }) => (
    <pre className="my-3 overflow-x-auto rounded-lg bg-slate-900 p-3 text-sm leading-relaxed text-slate-100">{children}</pre>
  ),
  blockquote: ({ children }) => <blockquote className="my-3 border-l-4 border-slate-300 pl-4 text-slate-600">{children}</blockquote>,
  hr: () => <hr className="my-6 border-slate-200" />,
  ul: ({ children, className }) => (
    <ul className={`my-3 space-y-1 pl-6 ${className === 'contains-task-list' ? 'list-none' : 'list-disc'}`}>{children}</ul>
  ),
  ol: ({ children, start }) => (
    <ol start={start} className="my-3 list-decimal space-y-1 pl-6">
      {children}
    </ol>
  ),
  li: ({ children }) => <li className="pl-1 [&>ol]:my-1 [&>ul]:my-1">{children}</li>,
  table: ({ children }) => (
    <div className="my-3 overflow-x-auto">
      <table className="min-w-full border-collapse text-sm">{children}</table>
    </div>
  ),
  th: ({ children, style }) => (
    <th style={style} className="border border-slate-200 bg-slate-50 px-3 py-1.5 text-left font-semibold">
      {children}
    </th>
  ),
  td: ({ children, style }) => (
    <td style={style} className="border border-slate-200 px-3 py-1.5">
      {children}
    </td>
  ),
};

const urlTransform = (url: string) => safeLinkHref(url) ?? undefined;
const remarkPlugins = [remarkGfm, remarkAgoraText];
/** For text wrapped by its author at a width (docs/*.md): a single newline is a space, as in CommonMark. */
const remarkWrappedPlugins = [remarkGfm, [remarkAgoraText, { softBreaks: false }]] as const;

/**
 * Renders Markdown safely. `baseLevel` is the HTML heading level of the source's top heading
 * (3 by default: a description sits under the page's h1 and a section's h2). `wrapped`: the
 * source is hard-wrapped by its author (a file of the repository, as the roadmap), so a single
 * newline joins the lines with a space instead of breaking the line mid-sentence.
 */
export const Markdown = memo(function Markdown({
  source,
  baseLevel = 3,
  className = '',
  wrapped = false,
}: {
  source: string;
  baseLevel?: number;
  className?: string;
  wrapped?: boolean;
}) {
  return (
    <div className={`markdown break-words leading-relaxed text-slate-700 ${className}`}>
      <ReactMarkdown
        remarkPlugins={wrapped ? (remarkWrappedPlugins as unknown as typeof remarkPlugins) : remarkPlugins}
        urlTransform={urlTransform}
        components={{ ...BLOCKS, ...headings(baseLevel, topHeadingDepth(source ?? '')) }}
      >
        {source ?? ''}
      </ReactMarkdown>
    </div>
  );
});
