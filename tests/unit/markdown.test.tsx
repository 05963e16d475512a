import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Markdown, parseBlocks, safeHref } from '../../src/web/components/markdown.js';

/** The safe Markdown renderer used for course descriptions and bios. */
const html = (source: string) => renderToStaticMarkup(createElement(Markdown, { source }));

describe('Markdown renderer: safety', () => {
  it('shows raw HTML as text: no script element, no event handler attribute', () => {
    const out = html('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">');
    expect(out).not.toMatch(/<script/i);
    expect(out).not.toMatch(/<img/i);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('onerror=&quot;alert(2)&quot;');
  });

  it('keeps only http(s) links, opened with noopener', () => {
    expect(safeHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeHref('http://example.com')).toBe('http://example.com/');
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'data:text/html,<b>x</b>', '/relative', 'vbscript:x']) {
      expect(safeHref(bad), bad).toBeNull();
    }
    const out = html('[site](https://example.com) and [evil](javascript:alert(1))');
    expect(out).toMatch(/<a [^>]*href="https:\/\/example.com\/"[^>]*rel="noopener noreferrer[^"]*"/);
    expect(out).not.toContain('href="javascript');
    expect(out).toContain('evil');
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
  it('parses headings, paragraphs, rules, quotes, fenced code and lists', () => {
    const blocks = parseBlocks('# Title\n\nText line\nnext\n\n---\n\n> quoted\n\n```ts\nconst a = 1;\n```\n\n- one\n- two\n\n3. three\n4. four');
    expect(blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'rule', 'quote', 'code', 'list', 'list']);
    expect(blocks[0]).toMatchObject({ level: 1, text: 'Title' });
    expect(blocks[4]).toMatchObject({ lang: 'ts', text: 'const a = 1;' });
    expect(blocks[5]).toMatchObject({ ordered: false });
    expect(blocks[6]).toMatchObject({ ordered: true, start: 3 });
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

  it('treats backslash escapes as literal characters', () => {
    const out = html('\\*not italic\\*');
    expect(out).toContain('*not italic*');
    expect(out).not.toContain('<em>');
  });

  it('shifts heading levels under the page heading', () => {
    expect(html('# Top')).toMatch(/^<div[^>]*><h3/);
  });
});
