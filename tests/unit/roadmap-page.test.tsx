import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { RoadmapPage } from '../../src/web/features/marketing/info-pages.js';
import { Markdown } from '../../src/web/components/markdown.js';

/** Issue 23: /roadmap shows docs/roadmap.md, which is wrapped at a width; its bullets must not break mid-sentence. */
describe('the roadmap page', () => {
  const page = renderToStaticMarkup(createElement(MemoryRouter, null, createElement(RoadmapPage)));

  it('has no line break inside a bullet: the wrapped lines are one sentence', () => {
    const items = page.match(/<li[^>]*>[\s\S]*?<\/li>/g) ?? [];
    expect(items.length).toBeGreaterThan(10);
    for (const li of items) expect(li, li).not.toContain('<br');
    expect(page).toMatch(/password\s+reset, sign out on this device/);
  });

  it('keeps a single newline a line break in user text (descriptions, bios)', () => {
    expect(renderToStaticMarkup(createElement(Markdown, { source: 'one\ntwo' }))).toContain('<br/>');
    expect(renderToStaticMarkup(createElement(Markdown, { source: 'one\ntwo', wrapped: true }))).not.toContain('<br');
  });
});
