import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchRunner } from '../../../src/server/courses/search-shared.js';
import {
  CLUB_CARD_COLUMNS,
  PREPARED_CLUB_ONE_WORD,
  PREPARED_CLUB_RELEVANCE,
  relevanceSql,
  searchClubs,
  toCard,
  type ClubSearchParams,
} from '../../../src/server/clubs/search-clubs.js';
import { clubSearchQuery, type ClubCard } from '../../../src/shared/clubs-schemas.js';
import type { SignedInUser } from '../../support/factories.js';
import { useTestApp } from '../../support/app.js';
import { clubBody, join, makeClub, makeEvents, makeUser, rows } from '../../support/clubs.js';
import { call, post } from '../../support/http.js';

/**
 * Club search's postings (club_term) and lexeme counts (club_lexeme), kept by the club
 * triggers (drizzle/0032, docs/decisions/0026-clubs-at-scale.md), and the one-word statement
 * that reads them. Every club carries words of this run only (TOK), so other test files
 * never change these counts.
 */
const TOK = `zq${randomBytes(4)
  .toString('hex')
  .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)])}`;

const ctx = useTestApp();
const put = (url: string, body: unknown, cookie: string) => call(ctx.app, 'PUT', url, body, { cookie });

/** A club's postings as the trigger wrote them, and as they should be from its row. */
async function postings(clubId: string) {
  const got = await rows<Record<string, unknown>>(
    ctx.app,
    sql`select lexeme, tier, member_count, category, city, online, visibility, next_event_at::text as next_event_at
        from club_term where club_id = ${clubId} order by lexeme`,
  );
  const want = await rows<Record<string, unknown>>(
    ctx.app,
    sql`select l as lexeme, case when l = any (tsvector_to_array(search_name)) then 1 else 2 end as tier, member_count, category,
          lower(city) as city, online, visibility, next_event_at::text as next_event_at
        from club, unnest(tsvector_to_array(search)) l where id = ${clubId} order by l`,
  );
  return { got, want };
}

/** club_lexeme of this run's words, and the same counted over the clubs. */
async function lexemeCounts() {
  const got = await rows<{ lexeme: string; n_all: number }>(
    ctx.app,
    sql`select lexeme, n_all from club_lexeme where lexeme like ${TOK + '%'} and n_all <> 0 order by lexeme`,
  );
  const want = await rows<{ lexeme: string; n_all: number }>(
    ctx.app,
    sql`select word as lexeme, ndoc as n_all from ts_stat(${`select search from club where search::text like '%${TOK}%'`})
        where word like ${TOK + '%'} order by word`,
  );
  return { got, want };
}

async function expectInStep(clubIds: string[]) {
  for (const id of clubIds) {
    const { got, want } = await postings(id);
    expect(got, id).toEqual(want);
  }
  const counts = await lexemeCounts();
  expect(counts.got).toEqual(counts.want);
}

describe('club search postings and lexeme counts follow the clubs', () => {
  it('on create, rename, member count, visibility, next event, cancel and delete', async () => {
    const owner = await makeUser(ctx.app, 'Owner');
    const body = { name: `${TOK}alpha Potters`, description: `Clay and ${TOK}beta glazes. ${TOK}gamma too.`, city: 'Ghent' };
    const a = await makeClub(ctx.app, owner, body);
    const b = await makeClub(ctx.app, owner, { name: `${TOK}beta Weavers`, description: `${TOK}alpha threads.`, online: true, city: null });
    const created = await postings(a);
    expect(created.got.length).toBeGreaterThan(3);
    expect(created.got.find((r) => r.lexeme === `${TOK}alpha`)).toMatchObject({ tier: 1, member_count: 1, city: 'ghent' });
    expect(created.got.find((r) => r.lexeme === `${TOK}beta`)).toMatchObject({ tier: 2 });
    await expectInStep([a, b]);

    // Renamed: the old name's words leave, the new ones come (tier 1), the counts move.
    expect((await put(`/api/clubs/${a}`, clubBody({ ...body, name: `${TOK}delta Potters` }), owner.cookie)).statusCode).toBe(200);
    expect((await postings(a)).got.map((r) => r.lexeme)).not.toContain(`${TOK}alpha`);
    await expectInStep([a, b]);

    // A member joins: the member count of every posting.
    await join(ctx.app, await makeUser(ctx.app, 'Member'), a);
    expect((await postings(a)).got.every((r) => r.member_count === 2)).toBe(true);
    await expectInStep([a, b]);

    // Visibility and filters.
    const edit = clubBody({ ...body, name: `${TOK}delta Potters`, visibility: 'approval', category: 'arts', city: 'Porto' });
    expect((await put(`/api/clubs/${a}`, edit, owner.cookie)).statusCode).toBe(200);
    expect((await postings(a)).got.every((r) => r.visibility === 'approval' && r.city === 'porto' && r.category === 'arts')).toBe(true);
    await expectInStep([a, b]);

    // The next event, set by an event and cleared by its cancellation.
    const [eventId] = await makeEvents(ctx.app, owner, b);
    expect((await postings(b)).got.every((r) => r.next_event_at !== null)).toBe(true);
    await expectInStep([a, b]);
    expect((await post(ctx.app, `/api/clubs/${b}/events/${eventId}/cancel`, undefined, { cookie: owner.cookie })).statusCode).toBe(200);
    expect((await postings(b)).got.every((r) => r.next_event_at === null)).toBe(true);
    await expectInStep([a, b]);

    // Deleted: no posting left, the counts down.
    const del = await post(ctx.app, `/api/clubs/${a}/delete`, { confirmName: `${TOK}delta Potters` }, { cookie: owner.cookie });
    expect(del.statusCode).toBe(200);
    expect((await postings(a)).got).toEqual([]);
    await expectInStep([b]);
  });
});

/** The card's summary as Node made it before club.summary (search-clubs.ts until migration 0033), verbatim. */
/** The marks and spaces beside which a "-" is a Markdown mark rather than the text's own hyphen (migration 0041). */
const NOT_TEXT = String.raw`\s#*_>\x60~[\]()!|.,;:?`;
const summaryBefore = (markdown: string) =>
  markdown
    .split('\n')
    .map((line) =>
      line
        .replace(new RegExp(`(^|[${NOT_TEXT}-])-+`, 'g'), '$1 ')
        .replace(new RegExp(`-+(?=[${NOT_TEXT}]|$)`, 'g'), ' ')
        .replace(/!+(?=\[)/g, ' ')
        .replace(/[#*_>`~[\]()|]+/g, ' ')
        .replace(/\s+/g, ' ')
        .replace(/\s+([.,;:!?])/g, '$1')
        .trim(),
    )
    .filter(Boolean)
    .map((line, i, all) => (i < all.length - 1 && !/[.,;:!?]$/.test(line) ? `${line}.` : line))
    .join(' ')
    .slice(0, 160);

describe('club.summary, the card line made at write time (migration 0033)', () => {
  it('follows the description on create, API edit and raw SQL update, as the card showed it before', async () => {
    const owner = await makeUser(ctx.app, 'Owner');
    const description = `# ${TOK}sum Potters\n\nWe **throw** pots - every _week_ !\n> Bring [an apron](https://example.com)\n\nTea \`after\`.`;
    const body = { name: `${TOK}sum Potters`, description, city: 'Ghent' };
    const id = await makeClub(ctx.app, owner, body);
    const summary = async () => (await rows<{ summary: string }>(ctx.app, sql`select summary from club where id = ${id}`))[0].summary;
    const card = async () => {
      const res = await call(ctx.app, 'GET', `/api/clubs/search?q=${TOK}sum`, undefined, { cookie: owner.cookie });
      return (res.json() as { items: { id: string; summary: string }[] }).items.find((c) => c.id === id)?.summary;
    };
    expect(await summary()).toBe(
      // The "!" is the text's own (kept since migration 0041); the " - " between spaces is a mark.
      'Potters. We throw pots every week! Bring an apron https://example.com. Tea after.'.replace('Potters', `${TOK}sum Potters`),
    );
    expect(await summary()).toBe(summaryBefore(description));
    expect(await card()).toBe(summaryBefore(description));

    const edited = `${TOK}sum ${'Long line of clay. '.repeat(12)}`;
    expect((await put(`/api/clubs/${id}`, clubBody({ ...body, description: edited }), owner.cookie)).statusCode).toBe(200);
    expect(await summary()).toBe(summaryBefore(edited));
    expect((await summary()).length).toBe(160);
    expect(await card()).toBe(summaryBefore(edited));

    await rows(ctx.app, sql`update club set description = ${`${TOK}sum\n\nRaw - SQL`} where id = ${id}`);
    expect(await summary()).toBe(`${TOK}sum. Raw SQL`);
    expect(await card()).toBe(`${TOK}sum. Raw SQL`);

    // The stored head of the card (club.card_head, migration 0034) follows the other card columns too.
    await rows(
      ctx.app,
      sql`update club set name = ${`${TOK}sum "Quoted" \\ Potters`}, city = null, online = true, category = 'arts',
        cover_image = '/covers/x.png', visibility = 'approval' where id = ${id}`,
    );
    const res = await call(ctx.app, 'GET', `/api/clubs/search?q=${TOK}sum`, undefined, { cookie: owner.cookie });
    const [byRow] = await rows<Parameters<typeof toCard>[0]>(ctx.app, sql`select ${CLUB_CARD_COLUMNS} from club where id = ${id}`);
    expect((res.json() as { items: ClubCard[] }).items).toEqual([toCard(byRow)]);
    expect(byRow).toMatchObject({ name: `${TOK}sum "Quoted" \\ Potters`, city: null, online: true, visibility: 'approval' });
  });

  it('club_summary() gives what the Node summary gave, Unicode spaces, CRLF and emoji included', async () => {
    const marks = ['#', '*', '_', '>', '`', '~', '[', ']', '(', ')', '!', '|', '-', '.', ',', ';', ':', '?', '\\', '^', '$', '"'];
    const spaces = [' ', '  ', '\t', '\r', '\n', '\n\n', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u200b'];
    const letters = ['a', 'Z', 'é', 'ß', '日', '😀', 'word ', 'London '];
    const alphabet = [...marks, ...spaces, ...spaces, ...letters, ...letters];
    // A fixed pseudo-random sequence: the same descriptions every run.
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const descriptions = [
      '',
      '\n\n',
      '😀'.repeat(100),
      `${'a'.repeat(159)}😀b`,
      ...Array.from({ length: 600 }, () => {
        let d = '';
        for (let i = next(300); i > 0; i--) d += alphabet[next(alphabet.length)];
        return d;
      }),
    ];
    const got = await rows<{ s: string }>(
      ctx.app,
      sql`select club_summary(d) as s from json_array_elements_text(${JSON.stringify(descriptions)}::json) with ordinality u(d, i) order by i`,
    );
    descriptions.forEach((d, i) => {
      const before = summaryBefore(d);
      // Node cut an emoji in half at the 160th code unit (a lone surrogate, not valid text): the function leaves it out.
      const want = /[\ud800-\udbff]$/.test(before) ? before.slice(0, -1) : before;
      expect(got[i].s, JSON.stringify(d)).toBe(want);
    });
  });
});

describe("club.summary keeps the text's punctuation (issue 23, migration 0041)", () => {
  it('keeps hyphens between words and exclamation marks; drops list markers, rules and image marks', async () => {
    const description = [
      '# Science-fiction & fantasy!',
      '',
      '- Monthly meet-ups, 2-3 books',
      '* Tea - and cake',
      '---',
      '![cover](x.png) Come along!',
    ].join('\n');
    const [row] = await rows<{ s: string }>(ctx.app, sql`select club_summary(${description}) as s`);
    expect(row.s).toBe('Science-fiction & fantasy! Monthly meet-ups, 2-3 books. Tea and cake. cover x.png Come along!');
    expect(summaryBefore(description)).toBe(row.s);
  });
  it('is the stored summary of a club and of its card head', async () => {
    const owner = await makeUser(ctx.app, 'Hyphen');
    const res = await post(
      ctx.app,
      '/api/clubs',
      clubBody({ name: `${TOK}hyphen Readers`, description: 'Science-fiction readers! Well-read or not.' }),
      { cookie: owner.cookie },
    );
    expect(res.statusCode, res.body).toBe(201);
    const [club] = await rows<{ summary: string; head: string }>(
      ctx.app,
      sql`select summary, card_head as head from club where id = ${(res.json() as { id: string }).id}`,
    );
    expect(club.summary).toBe('Science-fiction readers! Well-read or not.');
    expect(club.head).toContain('"summary":"Science-fiction readers! Well-read or not."');
  });
});

describe('one-word club search', () => {
  let owner: SignedInUser;
  const W = `${TOK}word`;
  const clubs: string[] = [];
  beforeAll(async () => {
    owner = await makeUser(ctx.app, 'Finder');
    // Name matches (tier 1) and description matches (tier 2), several categories, cities,
    // online, approval, member counts and an upcoming event: the orders and filters both statements apply.
    const specs: Record<string, unknown>[] = [
      { name: `${W} Runners`, category: 'sport', city: 'Leeds' },
      { name: `Leeds ${W} Walkers`, category: 'sport', city: 'Leeds', visibility: 'approval' },
      { name: `Online ${W} Chess`, category: 'social', city: null, online: true },
      { name: `Knitters of York`, description: `We knit. ${W} on Sundays.`, category: 'arts', city: 'York' },
      { name: `Leeds Bakers`, description: `Bread and ${W}.`, category: 'cooking', city: 'Leeds' },
      { name: `${W} Society`, category: 'arts', city: 'York' },
      { name: `Film club`, description: `Films. ${W}!`, category: 'arts', city: null, online: true },
    ];
    for (const spec of specs) clubs.push(await makeClub(ctx.app, owner, spec));
    for (let i = 0; i < 2; i++) await join(ctx.app, await makeUser(ctx.app), clubs[5]);
    await join(ctx.app, await makeUser(ctx.app), clubs[4]);
    await makeEvents(ctx.app, owner, clubs[0]);
    await makeEvents(ctx.app, owner, clubs[4]);
  });

  /** The runner of the app, recording the name of every prepared statement it runs. */
  function recordingRunner() {
    const names: string[] = [];
    const real = ctx.app.searchRunner;
    const runner: SearchRunner = {
      db: real.db,
      prepared: real.prepared
        ? (name, query) => {
            names.push(name);
            return real.prepared!(name, query);
          }
        : undefined,
    };
    return { runner, names };
  }

  const params = (query: string): ClubSearchParams => clubSearchQuery.parse(Object.fromEntries(new URLSearchParams(query)));

  /** What the big statement (every relevance search before the postings) answers for the same search. */
  async function big(query: string) {
    const p = params(query);
    const [r] = await rows<{ total: number; items: ClubCard[] | string }>(ctx.app, relevanceSql(p, p.q!.toLowerCase()));
    const items = typeof r.items === 'string' ? (JSON.parse(r.items) as ClubCard[]) : r.items;
    return { items, ids: items.map((i) => i.id), total: Number(r.total) };
  }

  it('answers as the big statement does, in one small prepared statement', async () => {
    expect(ctx.app.searchRunner.prepared, 'the tests run on PostgreSQL with prepared search statements').toBeDefined();
    for (const query of [
      `q=${W}`,
      `q=${W}&pageSize=2`,
      `q=${W}&pageSize=2&page=2`,
      `q=${W}&pageSize=2&page=4`,
      `q=${W}&pageSize=2&page=9`,
      `q=${W}&category=arts`,
      `q=${W}&city=leeds`,
      `q=${W}&online=true`,
      `q=${W}&online=false`,
      `q=${W}&upcoming=true`,
      `q=${W}&upcoming=false&category=sport`,
      `q=${W}&category=cooking&city=Leeds&upcoming=true`,
      `q=${TOK}nothing`,
      `q=the`,
    ]) {
      const { runner, names } = recordingRunner();
      const got = await searchClubs(runner, params(query));
      const want = await big(query);
      expect(
        got.items.map((i) => i.id),
        query,
      ).toEqual(want.ids);
      // The whole cards, as PostgreSQL wrote them in either statement.
      expect(got.items, query).toEqual(want.items);
      expect(got.total, query).toBe(want.total);
      expect(got.totalIs, query).toBe('exact');
      expect(names, query).toEqual([PREPARED_CLUB_ONE_WORD]);
    }
    // Approval clubs are found; their events never show.
    const all = await searchClubs(ctx.app.searchRunner, params(`q=${W}`));
    expect(all.items.find((c) => c.id === clubs[1])).toMatchObject({ visibility: 'approval', nextEventAt: null });
    expect(all.items.find((c) => c.id === clubs[0])?.nextEventAt).not.toBeNull();
    // The cards as Node wrote them before PostgreSQL did (toCard over the club rows): the same answer.
    const byRows = await rows<Parameters<typeof toCard>[0]>(
      ctx.app,
      sql`select ${CLUB_CARD_COLUMNS} from club where id in ${all.items.map((c) => c.id)}`,
    );
    expect(all.items).toEqual(all.items.map((c) => toCard(byRows.find((r) => r.id === c.id)!)));
    expect(all.items.find((c) => c.id === clubs[0])?.nextEventAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The route sends the same answer.
    const res = await call(ctx.app, 'GET', `/api/clubs/search?q=${W}`, undefined, { cookie: owner.cookie });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual(all);
    // Tier 1 (name or city) first, most members first within a tier.
    expect(all.items.map((c) => c.id).slice(0, 1)).toEqual([clubs[5]]);
    expect(all.items.map((c) => c.id).slice(-3)).toEqual([clubs[4], ...[clubs[3], clubs[6]].sort()]);
  });

  it('a typo costs two statements: the first brings the nearest known words', async () => {
    const { runner, names } = recordingRunner();
    const typo = await searchClubs(runner, params(`q=${W.slice(0, -2)}dr`)); // one letter changed
    expect(typo.correctedQuery).toBe(W);
    expect(typo.total).toBe(7);
    expect(names).toEqual([PREPARED_CLUB_ONE_WORD, PREPARED_CLUB_ONE_WORD]);
  });

  it('several words keep the big statement', async () => {
    const { runner, names } = recordingRunner();
    const r = await searchClubs(runner, params(`q=${W} leeds`));
    expect(r.items.map((c) => c.id).sort()).toEqual([clubs[0], clubs[1], clubs[4]].sort());
    expect(names).toEqual([PREPARED_CLUB_RELEVANCE]);
  });
});
