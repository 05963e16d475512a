import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Markdown } from '../../src/web/components/markdown.js';
import { safeHref, safeLinkHref } from '../../src/web/lib/safe-href.js';

/** The safe Markdown renderer used for course descriptions and bios. */
const html = (source: string, baseLevel?: number) => renderToStaticMarkup(createElement(Markdown, { source, baseLevel }));

describe('Markdown renderer: safety', () => {
  it('shows raw HTML as text: no script element, no event handler attribute', () => {
    const out = html('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">');
    expect(out).not.toMatch(/<script/i);
    expect(out).not.toMatch(/<img/i);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('onerror=&quot;alert(2)&quot;');
  });

  it('shows inline raw HTML as text too', () => {
    const out = html('Hello <b onmouseover="alert(1)">there</b> <iframe src="https://evil.example"></iframe>');
    expect(out).not.toMatch(/<b[ >]/);
    expect(out).not.toMatch(/<iframe/i);
    expect(out).not.toMatch(/<[a-z][^>]*\son\w+=/i);
    expect(out).toContain('&lt;b onmouseover=&quot;alert(1)&quot;&gt;');
  });

  it('keeps only http(s) and mailto links, opened in a new tab with noopener', () => {
    expect(safeHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeHref('http://example.com')).toBe('http://example.com/');
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<b>x</b>',
      '/relative',
      'vbscript:x',
    ]) {
      expect(safeHref(bad), bad).toBeNull();
      expect(safeLinkHref(bad), bad).toBeNull();
    }
    expect(safeLinkHref('mailto:ada@example.com')).toBe('mailto:ada@example.com');
    const out = html('[site](https://example.com) and [evil](javascript:alert(1)) and [mail](mailto:ada@example.com)');
    expect(out).toMatch(/<a [^>]*href="https:\/\/example.com\/"[^>]*target="_blank"[^>]*rel="noopener noreferrer[^"]*"/);
    expect(out).toMatch(/<a [^>]*href="mailto:ada@example.com"/);
    expect(out).not.toContain('href="javascript');
    expect(out).toContain('evil');
  });

  it('drops every unsafe link form: encoded, reference-style, autolink, data and relative', () => {
    const out = html(
      [
        '[a](jav&#x61;script:alert(1)) [b](&#106;avascript:alert(1)) [c](data:text/html;base64,PHNjcmlwdD4=)',
        '[d][ref] <javascript:alert(1)> [e](/relative) [f](vbscript:x)',
        '',
        '[ref]: javascript:alert(1)',
      ].join('\n'),
    );
    expect(out).not.toMatch(/href=/);
    expect(out).not.toMatch(/javascript:alert\(1\)"/);
  });

  it('never loads an image: it becomes a link, and unsafe sources are dropped', () => {
    const out = html('![logo](https://example.com/a.png) ![x](javascript:alert(1)) ![y](x" onerror="alert(1))');
    expect(out).not.toMatch(/<img/i);
    expect(out).toMatch(/<a [^>]*href="https:\/\/example.com\/a.png"[^>]*>logo<\/a>/);
    expect(out).not.toContain('javascript:');
    expect(out).not.toMatch(/<[a-z][^>]*\son\w+=/i);
  });

  it('escapes what a link text or code span carries', () => {
    const out = html('`<b>bold?</b>` [<i>x</i>](https://example.com)');
    expect(out).toMatch(/<code[^>]*>&lt;b&gt;bold\?&lt;\/b&gt;<\/code>/);
    expect(out).not.toContain('<i>x</i>');
  });

  it('survives deeply nested quotes and lists without blowing the stack', () => {
    const deep = '>'.repeat(5000) + ' x';
    expect(() => html(deep)).not.toThrow();
    const list = Array.from({ length: 200 }, (_, i) => ' '.repeat(i * 2) + '- item').join('\n');
    expect(() => html(list)).not.toThrow();
  });
});

describe('Markdown renderer: blocks and inline', () => {
  it('renders headings, paragraphs, rules, quotes, fenced code and lists', () => {
    const out = html('# Title\n\nText line\nnext\n\n---\n\n> quoted\n\n```ts\nconst a = 1;\n```\n\n- one\n- two\n\n3. three\n4. four');
    expect(out).toMatch(/<h3[^>]*>Title<\/h3>/);
    expect(out).toMatch(/<p[^>]*>Text line<br\/>\s*next<\/p>/);
    expect(out).toContain('<hr');
    expect(out).toMatch(/<blockquote[^>]*>\s*<p[^>]*>quoted<\/p>\s*<\/blockquote>/);
    expect(out).toMatch(/<pre[^>]*><code class="language-ts">const a = 1;\n<\/code><\/pre>/);
    expect(out).toMatch(/<ul[^>]*>\s*<li[^>]*>one<\/li>\s*<li[^>]*>two<\/li>\s*<\/ul>/);
    expect(out).toMatch(/<ol start="3"[^>]*>\s*<li[^>]*>three<\/li>/);
  });

  it('renders emphasis, strike, code, line breaks and bare links', () => {
    const out = html('**bold** *it* _it2_ ~~gone~~ `c`\nsecond line https://agora.example/x');
    expect(out).toMatch(/<strong[^>]*>bold<\/strong>/);
    expect(out).toContain('<em>it</em>');
    expect(out).toContain('<em>it2</em>');
    expect(out).toContain('<del>gone</del>');
    expect(out).toMatch(/<code[^>]*>c<\/code>/);
    expect(out).toContain('<br/>');
    expect(out).toMatch(/<a [^>]*href="https:\/\/agora.example\/x"/);
  });

  it('renders autolinks in angle brackets', () => {
    expect(html('<https://agora.example/y>')).toMatch(/<a [^>]*href="https:\/\/agora.example\/y"/);
  });

  it('renders GitHub tables (beyond what the old renderer knew)', () => {
    const out = html('| a | b |\n|---|---|\n| 1 | 2 |');
    expect(out).toMatch(/<table[^>]*>/);
    expect(out).toMatch(/<td[^>]*>2<\/td>/);
  });

  it('treats backslash escapes as literal characters', () => {
    const out = html('\\*not italic\\*');
    expect(out).toContain('*not italic*');
    expect(out).not.toContain('<em>');
  });

  it('shifts heading levels under the page heading', () => {
    expect(html('# Top')).toMatch(/^<div[^>]*><h3/);
    expect(html('# Top\n\n###### Deep')).toMatch(/<h6/);
  });

  it('starts at the base level whatever the top heading of the source, skipping no level', () => {
    expect(html('## Sub', 2)).toMatch(/^<div[^>]*><h2/);
    const out = html('## What you learn\n\ntext\n\n### Week one\n\n## Who it is for');
    expect([...out.matchAll(/<(h\d)/g)].map((m) => m[1])).toEqual(['h3', 'h4', 'h3']);
  });
});
