import { Fragment, memo, type ReactNode } from 'react';

/**
 * A small, safe Markdown renderer for user text (course descriptions, bios).
 *
 * Safe by construction: the source is parsed into React elements, never into an HTML
 * string, so every character a user typed is shown as text (React escapes it). Raw HTML
 * is not supported — `<script>` or `<img onerror=…>` appear literally. Links are kept only
 * for http(s) URLs and open with rel="noopener noreferrer"; anything else (javascript:,
 * data:, relative paths) is shown as plain text.
 *
 * Supported: ATX headings (#), paragraphs (a single newline is a line break), **bold**,
 * *italic* / _italic_, ~~strikethrough~~, `code`, fenced code blocks (```), bullet and
 * numbered lists (nested by indentation), > block quotes, --- rules, [links](https://…),
 * <https://…> and bare https:// links, and backslash escapes.
 */

export type Block =
  | { type: 'heading'; level: number; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'code'; lang: string; text: string }
  | { type: 'quote'; blocks: Block[] }
  | { type: 'rule' }
  | { type: 'list'; ordered: boolean; start: number; items: Block[][] };

const MAX_DEPTH = 8;
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)\s*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const BLANK = /^\s*$/;

/** A heading's text without its optional closing run of "#". */
function headingText(rest: string): string {
  const t = rest.trimEnd();
  let j = t.length;
  while (j > 0 && t[j - 1] === '#') j--;
  return j === 0 ? '' : j < t.length && (t[j - 1] === ' ' || t[j - 1] === '\t') ? t.slice(0, j).trimEnd() : t;
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/** Splits Markdown source into blocks (exported for tests). */
export function parseBlocks(source: string, depth = 0): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  const startsBlock = (line: string) =>
    FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || LIST_ITEM.test(line);

  while (i < lines.length) {
    const line = lines[i];
    if (BLANK.test(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const closing = new RegExp(`^ {0,3}${fence[1][0] === '`' ? '`' : '~'}{${fence[1].length},}\\s*$`);
      const body: string[] = [];
      i++;
      while (i < lines.length && !closing.test(lines[i])) body.push(lines[i++]);
      i++; // the closing fence (or the end)
      blocks.push({ type: 'code', lang: fence[2], text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1].length, text: headingText(line.slice(heading[0].length)) });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && !BLANK.test(lines[i])) {
        const q = QUOTE.exec(lines[i]);
        body.push(q ? q[1] : lines[i]);
        i++;
      }
      blocks.push(depth >= MAX_DEPTH ? { type: 'paragraph', text: body.join('\n') } : { type: 'quote', blocks: parseBlocks(body.join('\n'), depth + 1) });
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const ordered = /\d/.test(item[2]);
      const baseIndent = item[1].length;
      const items: string[][] = [];
      while (i < lines.length) {
        const l = lines[i];
        const m = LIST_ITEM.exec(l);
        if (m && m[1].length <= baseIndent + 1 && /\d/.test(m[2]) === ordered) {
          items.push([m[3]]);
          i++;
          continue;
        }
        if (m && m[1].length <= baseIndent + 1) break; // a list of the other kind starts
        if (BLANK.test(l)) {
          // A blank line continues the list only if the list (or this item) goes on after it.
          let j = i + 1;
          while (j < lines.length && BLANK.test(lines[j])) j++;
          const next = lines[j];
          const nextItem = next !== undefined ? LIST_ITEM.exec(next) : null;
          if (next !== undefined && (indentOf(next) > baseIndent + 1 || (nextItem && nextItem[1].length <= baseIndent + 1 && /\d/.test(nextItem[2]) === ordered))) {
            items[items.length - 1].push('');
            i++;
            continue;
          }
          break;
        }
        if (indentOf(l) > baseIndent) {
          items[items.length - 1].push(l.slice(Math.min(indentOf(l), baseIndent + 2)));
          i++;
          continue;
        }
        // A lazy continuation of the item's paragraph (not the start of another block).
        if (!startsBlock(l)) {
          items[items.length - 1].push(l.trimStart());
          i++;
          continue;
        }
        break;
      }
      blocks.push({
        type: 'list',
        ordered,
        start: ordered ? Math.min(Number.parseInt(item[2], 10), 1_000_000) : 1,
        items: items.map((body) => (depth >= MAX_DEPTH ? [{ type: 'paragraph', text: body.join('\n') }] : parseBlocks(body.join('\n'), depth + 1))),
      });
      continue;
    }
    // A paragraph: up to a blank line or the start of another block.
    const body: string[] = [line.trim()];
    i++;
    while (i < lines.length && !BLANK.test(lines[i]) && !startsBlock(lines[i])) body.push(lines[i++].trim());
    blocks.push({ type: 'paragraph', text: body.join('\n') });
  }
  return blocks;
}

/** The URL if it is an absolute http(s) link, else null. */
export function safeHref(raw: string): string | null {
  const value = raw.trim().replace(/^<|>$/g, '');
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

const linkClass = 'font-medium text-brand-700 underline decoration-brand-300 underline-offset-2 hover:text-brand-800';

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow ugc" className={linkClass}>
      {children}
    </a>
  );
}

const BARE_URL = /https?:\/\/[^\s<>"]*[^\s<>".,:;!?'")\]*_~]/iy;
const AUTOLINK = /<(https?:\/\/[^\s<>]+)>/iy;
const LINK_TAIL = /\(\s*(<[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+("[^"]*"|'[^']*'))?\s*\)/y;
const ESCAPABLE = /[\\`*_{}[\]()#+\-.!>~|<]/;
const PUNCT = /[!-/:-@[-`{-~\p{P}\p{S}]/u;
const isSpace = (c: string) => c === '' || /\s/.test(c);
const isPunct = (c: string) => c !== '' && PUNCT.test(c);

/**
 * Where code spans and links start and end in a paragraph's text, found in linear time:
 * code spans first (they bind tightest), then links by bracket matching.
 */
function scanInline(text: string) {
  const code = new Map<number, number>(); // opening run start -> index after the closing run
  const runs: { pos: number; len: number }[] = [];
  for (let i = 0; i < text.length; ) {
    if (text[i] === '\\') {
      i += 2;
      continue;
    }
    if (text[i] !== '`') {
      i++;
      continue;
    }
    let j = i;
    while (text[j] === '`') j++;
    runs.push({ pos: i, len: j - i });
    i = j;
  }
  const byLength = new Map<number, number[]>();
  runs.forEach((r, n) => {
    const list = byLength.get(r.len);
    if (list) list.push(n);
    else byLength.set(r.len, [n]);
  });
  const cursor = new Map<number, number>();
  let consumedUntil = -1;
  for (let n = 0; n < runs.length; n++) {
    if (runs[n].pos < consumedUntil) continue;
    const same = byLength.get(runs[n].len)!;
    let c = cursor.get(runs[n].len) ?? 0;
    while (c < same.length && same[c] <= n) c++;
    cursor.set(runs[n].len, c);
    if (c < same.length) {
      const closer = runs[same[c]];
      code.set(runs[n].pos, closer.pos + closer.len);
      consumedUntil = closer.pos + closer.len;
    }
  }

  const links = new Map<number, { close: number; url: string; end: number }>();
  const openers: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
      continue;
    }
    const codeEnd = code.get(i);
    if (codeEnd !== undefined) {
      i = codeEnd - 1;
      continue;
    }
    if (c === '[') openers.push(i);
    else if (c === ']' && openers.length) {
      const open = openers.pop()!;
      LINK_TAIL.lastIndex = i + 1;
      const m = LINK_TAIL.exec(text);
      if (m) {
        links.set(open, { close: i, url: m[1], end: i + 1 + m[0].length });
        openers.length = 0; // no links inside links
        i += m[0].length;
      }
    }
  }
  return { code, links };
}

type Inline =
  | { kind: 'node'; node: ReactNode; prev: Inline | null; next: Inline | null }
  | { kind: 'delim'; ch: string; count: number; orig: number; canOpen: boolean; canClose: boolean; pos: number; prev: Inline | null; next: Inline | null; prevD: Delim | null; nextD: Delim | null; active: boolean };
type Delim = Extract<Inline, { kind: 'delim' }>;

/** Renders inline Markdown to React nodes. Everything that is not syntax is text. */
export function renderInline(text: string, keyPrefix = 'i'): ReactNode[] {
  const scan = scanInline(text);
  let k = 0;
  const key = () => `${keyPrefix}.${k++}`;
  return renderRange(text, 0, text.length, false, scan, key);
}

function renderRange(text: string, from: number, to: number, inLink: boolean, scan: ReturnType<typeof scanInline>, key: () => string): ReactNode[] {
  // A doubly linked list of text/element nodes and delimiter runs, plus the delimiter stack.
  let head: Inline | null = null;
  let tail: Inline | null = null;
  let lastD: Delim | null = null;
  let firstD: Delim | null = null;
  let pos = 0;
  const append = (n: Inline) => {
    n.prev = tail;
    n.next = null;
    if (tail) tail.next = n;
    else head = n;
    tail = n;
  };
  let buffer = '';
  const flush = () => {
    if (buffer) append({ kind: 'node', node: buffer, prev: null, next: null });
    buffer = '';
  };
  const node = (n: ReactNode) => {
    flush();
    append({ kind: 'node', node: n, prev: null, next: null });
  };

  let i = from;
  while (i < to) {
    const c = text[i];
    if (c === '\\' && i + 1 < to) {
      if (text[i + 1] === '\n') {
        node(<br key={key()} />);
        i += 2;
        continue;
      }
      if (ESCAPABLE.test(text[i + 1])) {
        buffer += text[i + 1];
        i += 2;
        continue;
      }
    }
    if (c === '\n') {
      node(<br key={key()} />);
      i++;
      continue;
    }
    const codeEnd = scan.code.get(i);
    if (codeEnd !== undefined && codeEnd <= to) {
      let run = 0;
      while (text[i + run] === '`') run++;
      let code = text.slice(i + run, codeEnd - run).replace(/\n/g, ' ');
      if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim()) code = code.slice(1, -1);
      node(<code key={key()} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[0.9em] text-slate-800">{code}</code>);
      i = codeEnd;
      continue;
    }
    if (c === '`') {
      while (text[i] === '`' && i < to) buffer += text[i++];
      continue;
    }
    const image = c === '!' && text[i + 1] === '[';
    const link = !inLink && scan.links.get(image ? i + 1 : i);
    if (link && link.end <= to) {
      const open = image ? i + 1 : i;
      const href = safeHref(link.url);
      const label = image ? [text.slice(open + 1, link.close) || link.url] : renderRange(text, open + 1, link.close, true, scan, key);
      node(href ? <ExternalLink key={key()} href={href}>{label}</ExternalLink> : <Fragment key={key()}>{label}</Fragment>);
      i = link.end;
      continue;
    }
    if (!inLink && c === '<') {
      AUTOLINK.lastIndex = i;
      const auto = AUTOLINK.exec(text);
      const href = auto && auto.index + auto[0].length <= to && safeHref(auto[1]);
      if (auto && href) {
        node(<ExternalLink key={key()} href={href}>{auto[1]}</ExternalLink>);
        i += auto[0].length;
        continue;
      }
    }
    if (!inLink && (c === 'h' || c === 'H') && (i === from || /[\s(]/.test(text[i - 1]))) {
      BARE_URL.lastIndex = i;
      const bare = BARE_URL.exec(text);
      const href = bare && bare.index + bare[0].length <= to && safeHref(bare[0]);
      if (bare && href) {
        node(<ExternalLink key={key()} href={href}>{bare[0]}</ExternalLink>);
        i += bare[0].length;
        continue;
      }
    }
    if (c === '*' || c === '_' || c === '~') {
      let j = i;
      while (j < to && text[j] === c) j++;
      const count = j - i;
      const before = i > from ? text[i - 1] : '';
      const after = j < to ? text[j] : '';
      const left = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
      const right = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
      const canOpen = c === '_' ? left && (!right || isPunct(before)) : left;
      const canClose = c === '_' ? right && (!left || isPunct(after)) : right;
      if ((c === '~' && count !== 2) || (!canOpen && !canClose)) {
        buffer += text.slice(i, j);
      } else {
        flush();
        const d: Delim = { kind: 'delim', ch: c, count, orig: count, canOpen, canClose, pos: pos++, prev: null, next: null, prevD: lastD, nextD: null, active: true };
        if (lastD) lastD.nextD = d;
        else firstD = d;
        lastD = d;
        append(d);
      }
      i = j;
      continue;
    }
    buffer += c;
    i++;
  }
  flush();

  // Emphasis: the CommonMark delimiter algorithm (linear thanks to the openers' floors).
  const unlinkD = (d: Delim) => {
    d.active = false;
    if (d.prevD) d.prevD.nextD = d.nextD;
    else firstD = d.nextD;
    if (d.nextD) d.nextD.prevD = d.prevD;
    else lastD = d.prevD;
  };
  const toNodes = (start: Inline | null, stop: Inline | null): ReactNode[] => {
    const out: ReactNode[] = [];
    for (let n = start; n && n !== stop; n = n.next) {
      if (n.kind === 'node') out.push(n.node);
      else {
        if (n.active) unlinkD(n);
        if (n.count) out.push(n.ch.repeat(n.count));
      }
    }
    return out;
  };
  const floors = new Map<string, number>();
  let closer: Delim | null = firstD;
  while (closer) {
    if (!closer.canClose) {
      closer = closer.nextD;
      continue;
    }
    const floorKey = `${closer.ch}${closer.canOpen ? 1 : 0}${closer.orig % 3}`;
    const floor = floors.get(floorKey) ?? -1;
    let opener: Delim | null = closer.prevD;
    while (opener && opener.pos > floor) {
      const oddMatch = (opener.canClose || closer.canOpen) && (opener.orig + closer.orig) % 3 === 0 && !(opener.orig % 3 === 0 && closer.orig % 3 === 0);
      if (opener.ch === closer.ch && opener.canOpen && (closer.ch !== '~' || opener.count === 2) && !(closer.ch !== '~' && oddMatch)) break;
      opener = opener.prevD;
    }
    if (opener && opener.pos > floor) {
      const use = closer.ch === '~' ? 2 : opener.count >= 2 && closer.count >= 2 ? 2 : 1;
      const inner = toNodes(opener.next, closer);
      const el =
        closer.ch === '~' ? <del key={key()}>{inner}</del>
        : use === 2 ? <strong key={key()} className="font-semibold text-slate-900">{inner}</strong>
        : <em key={key()}>{inner}</em>;
      const wrapped: Inline = { kind: 'node', node: el, prev: opener, next: closer };
      opener.next = wrapped;
      closer.prev = wrapped;
      opener.count -= use;
      closer.count -= use;
      if (opener.count === 0) {
        unlinkD(opener);
        removeNode(opener);
      }
      if (closer.count === 0) {
        const next: Delim | null = closer.nextD;
        unlinkD(closer);
        removeNode(closer);
        closer = next;
      }
    } else {
      floors.set(floorKey, closer.pos - 1);
      const next: Delim | null = closer.nextD;
      if (!closer.canOpen) unlinkD(closer);
      closer = next;
    }
  }
  function removeNode(n: Inline) {
    if (n.prev) n.prev.next = n.next;
    else head = n.next;
    if (n.next) n.next.prev = n.prev;
    else tail = n.prev;
  }
  return toNodes(head, null);
}

const HEADING_STYLES = ['text-2xl font-bold', 'text-xl font-bold', 'text-lg font-semibold', 'text-base font-semibold', 'text-sm font-semibold', 'text-sm font-semibold uppercase tracking-wide'];

function renderBlocks(blocks: Block[], baseLevel: number, prefix: string, tight = false): ReactNode[] {
  return blocks.map((b, n) => {
    const key = `${prefix}${n}`;
    switch (b.type) {
      case 'heading': {
        if (!b.text.trim()) return null;
        const Tag = `h${Math.min(6, baseLevel + b.level - 1)}` as 'h2';
        return <Tag key={key} className={`mt-6 mb-2 text-slate-900 first:mt-0 ${HEADING_STYLES[b.level - 1]}`}>{renderInline(b.text, key)}</Tag>;
      }
      case 'paragraph':
        return tight ? <Fragment key={key}>{renderInline(b.text, key)}</Fragment> : <p key={key} className="my-3 first:mt-0 last:mb-0">{renderInline(b.text, key)}</p>;
      case 'code':
        return (
          <pre key={key} className="my-3 overflow-x-auto rounded-lg bg-slate-900 p-3 text-sm leading-relaxed text-slate-100">
            <code data-lang={b.lang || undefined}>{b.text}</code>
          </pre>
        );
      case 'quote':
        return <blockquote key={key} className="my-3 border-l-4 border-slate-300 pl-4 text-slate-600">{renderBlocks(b.blocks, baseLevel, `${key}.`)}</blockquote>;
      case 'rule':
        return <hr key={key} className="my-6 border-slate-200" />;
      case 'list': {
        const items = b.items.map((item, m) => {
          const single = item.length === 1 && item[0].type === 'paragraph';
          const startsWithText = item[0]?.type === 'paragraph';
          return (
            <li key={`${key}.${m}`} className="pl-1 [&>ol]:my-1 [&>ul]:my-1">
              {single ? renderBlocks(item, baseLevel, `${key}.${m}.`, true) : startsWithText ? [
                <Fragment key="first">{renderBlocks([item[0]], baseLevel, `${key}.${m}.a`, true)}</Fragment>,
                ...renderBlocks(item.slice(1), baseLevel, `${key}.${m}.b`),
              ] : renderBlocks(item, baseLevel, `${key}.${m}.`)}
            </li>
          );
        });
        return b.ordered ? (
          <ol key={key} start={b.start !== 1 ? b.start : undefined} className="my-3 list-decimal space-y-1 pl-6">{items}</ol>
        ) : (
          <ul key={key} className="my-3 list-disc space-y-1 pl-6">{items}</ul>
        );
      }
    }
  });
}

/**
 * Renders Markdown safely. `baseLevel` is the HTML heading level of a "#" heading (3 by
 * default: a description sits under the page's h1 and a section's h2).
 */
export const Markdown = memo(function Markdown({ source, baseLevel = 3, className = '' }: { source: string; baseLevel?: number; className?: string }) {
  const blocks = parseBlocks(source ?? '');
  return <div className={`markdown break-words leading-relaxed text-slate-700 ${className}`}>{renderBlocks(blocks, baseLevel, 'b')}</div>;
});
