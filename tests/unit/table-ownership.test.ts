/**
 * Each domain owns its tables (docs/decisions/0035-each-domain-owns-its-tables.md). A table
 * belongs to the domain whose schema file defines it (src/server/db/schema/<owner>.ts). SQL
 * text is attributed to the file it is written in: a domain's files name only its own tables;
 * another domain reads or writes them through what the owner exports (a function, or a SQL
 * fragment written in the owner's folder and used anywhere). ESLint holds the same rule for
 * schema imports (eslint.config.js); this test holds it for SQL written as text, in the
 * server's code and in the migrations' functions and triggers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SERVER = join(ROOT, 'src', 'server');
const SCHEMA = join(SERVER, 'db', 'schema');

/** Tables created by migrations only (no Drizzle definition): their owner. */
const MIGRATION_ONLY_TABLES: Record<string, string> = {
  course_page_version: 'courses',
  course_page_change: 'courses',
};

/** Folders (and files) that wire everything together: they may name any table. */
const COMPOSITION = new Set(['app.ts', 'main.ts', 'app-services.ts', 'config.ts', 'seed', 'dev', 'system', 'pages']);

/**
 * What could not be untangled yet, each entry with its reason (shared with eslint.config.js):
 * schema imports (file -> owners), SQL text (file -> tables), and the migrations' functions
 * and triggers naming more than one owner's tables (a migration is history: it is not edited).
 * The test fails on a violation not listed there and on an entry that is no longer one.
 */
const ALLOWLIST = JSON.parse(readFileSync(join(SCHEMA, 'ownership-allowlist.json'), 'utf8')) as {
  schemaImports: Record<string, { owners: string[]; reason: string }>;
  sqlText: Record<string, { tables: string[]; reason: string }>;
  crossingTriggers: Record<string, string>;
};

function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>(Object.entries(MIGRATION_ONLY_TABLES));
  for (const file of readdirSync(SCHEMA)) {
    if (!file.endsWith('.ts') || file === 'index.ts') continue;
    const text = readFileSync(join(SCHEMA, file), 'utf8');
    for (const m of text.matchAll(/pgTable\(\s*['"]([a-z_][a-z0-9_]*)['"]/g)) {
      expect(owners.has(m[1]), `table ${m[1]} defined twice`).toBe(false);
      owners.set(m[1], file.replace(/\.ts$/, ''));
    }
  }
  return owners;
}

const OWNERS = tableOwners();

/** Tables named in SQL text in a table's place (from, join, into, update, ...), CTE names aside. */
export function tablesNamedIn(sqlText: string): Set<string> {
  const text = sqlText.replace(/--[^\n]*/g, ' ').toLowerCase();
  const ctes = new Set([...text.matchAll(/\b([a-z_][a-z0-9_]*)\s+as\s+(?:not\s+)?(?:materialized\s+)?\(/g)].map((m) => m[1]));
  const found = new Set<string>();
  const place =
    /\b(?:from|join|into|update|table|truncate|references)\s+(?:only\s+)?(?:if\s+(?:not\s+)?exists\s+)?(?:public\.)?"?([a-z_][a-z0-9_]*)"?/g;
  for (const m of text.matchAll(place)) {
    if (OWNERS.has(m[1]) && !ctes.has(m[1])) found.add(m[1]);
  }
  return found;
}

const LOOKS_LIKE_SQL = /\b(?:select\b[\s\S]*\bfrom|insert\s+into|delete\s+from|update\s+"?[a-z_]+"?\s+set|with\s+[a-z_]+\s+as\s*\()/i;

/** Every piece of SQL text in a TypeScript file: sql`` templates, and strings that read as SQL. */
function sqlTextsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const texts: string[] = [];
  const templateText = (t: ts.TemplateLiteral) =>
    ts.isNoSubstitutionTemplateLiteral(t) ? t.text : [t.head.text, ...t.templateSpans.map((s) => s.literal.text)].join(' ? ');
  const visit = (node: ts.Node) => {
    if (ts.isTaggedTemplateExpression(node)) {
      const tag = node.tag.getText(source);
      if (/^sql(\.\w+)?$/.test(tag)) texts.push(templateText(node.template));
      else ts.forEachChild(node, visit);
      return;
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (LOOKS_LIKE_SQL.test(node.text)) texts.push(node.text);
    } else if (ts.isTemplateExpression(node)) {
      const text = templateText(node);
      if (LOOKS_LIKE_SQL.test(text)) texts.push(text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

function serverFiles(dir = SERVER): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return serverFiles(path);
    return d.name.endsWith('.ts') ? [path] : [];
  });
}

/** The owner a server file writes SQL as: its top folder under src/server; null for composition. */
function domainOf(file: string): string | null {
  const top = relative(SERVER, file).split(/[\\/]/)[0];
  if (COMPOSITION.has(top)) return null;
  return top === 'db' && relative(SCHEMA, file).startsWith('..') ? 'db' : top === 'db' ? 'schema' : top;
}

/** file -> the foreign tables its SQL text names. */
export function codeViolations(): Map<string, string[]> {
  const violations = new Map<string, string[]>();
  for (const file of serverFiles()) {
    const domain = domainOf(file);
    if (domain === null || domain === 'schema') continue;
    const foreign = new Set<string>();
    for (const text of sqlTextsOf(file)) {
      for (const table of tablesNamedIn(text)) if (OWNERS.get(table) !== domain) foreign.add(table);
    }
    if (foreign.size > 0) violations.set(relative(ROOT, file).replaceAll('\\', '/'), [...foreign].sort());
  }
  return violations;
}

/** file -> the other owners' schema files it imports (index: the whole schema). */
export function schemaImportViolations(): Map<string, string[]> {
  const violations = new Map<string, string[]>();
  for (const file of serverFiles()) {
    const domain = domainOf(file);
    if (domain === null || domain === 'schema' || domain === 'db') continue;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    const foreign = new Set<string>();
    for (const statement of source.statements) {
      if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || !statement.moduleSpecifier) continue;
      const m = /\/db\/schema\/([a-z-]+)\.js$/.exec((statement.moduleSpecifier as ts.StringLiteral).text);
      if (m && m[1] !== domain && m[1] !== 'columns') foreign.add(m[1]);
    }
    if (foreign.size > 0) violations.set(relative(ROOT, file).replaceAll('\\', '/'), [...foreign].sort());
  }
  return violations;
}

/** The migrations' functions (by name, last definition) with the tables they name, and each trigger's table. */
function migrationSql() {
  const functions = new Map<string, Set<string>>();
  const triggers: { name: string; table: string; fn: string }[] = [];
  const dir = join(ROOT, 'drizzle');
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(/create\s+(?:or\s+replace\s+)?function\s+"?(\w+)"?\s*\([\s\S]*?\bas\s+(\$\w*\$)([\s\S]*?)\2/gi)) {
      functions.set(m[1].toLowerCase(), tablesNamedIn(m[3]));
    }
    for (const m of text.matchAll(
      /create\s+(?:constraint\s+)?trigger\s+"?(\w+)"?[\s\S]*?\bon\s+"?(\w+)"?[\s\S]*?execute\s+(?:function|procedure)\s+"?(\w+)"?/gi,
    )) {
      triggers.push({ name: m[1].toLowerCase(), table: m[2].toLowerCase(), fn: m[3].toLowerCase() });
    }
  }
  return { functions, triggers };
}

/** Migration functions and triggers naming tables of more than one owner: name -> owners. */
export function crossingSql(): Map<string, string[]> {
  const { functions, triggers } = migrationSql();
  const crossing = new Map<string, string[]>();
  const ownersOf = (tables: Iterable<string>) => [...new Set([...tables].map((t) => OWNERS.get(t) ?? `?${t}`))].sort();
  for (const [name, tables] of functions) {
    const owners = ownersOf(tables);
    if (owners.length > 1) crossing.set(`function ${name}`, owners);
  }
  for (const t of triggers) {
    const owners = ownersOf([t.table, ...(functions.get(t.fn) ?? [])]);
    if (owners.length > 1) crossing.set(`trigger ${t.name}`, owners);
  }
  return crossing;
}

describe('each domain owns its tables', () => {
  it('gives every table a migration creates one owner', () => {
    const dir = join(ROOT, 'drizzle');
    const created = readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .flatMap((f) =>
        [...readFileSync(join(dir, f), 'utf8').matchAll(/create\s+table\s+(?:if\s+not\s+exists\s+)?"?(\w+)"?/gi)].map((m) => m[1]),
      )
      .filter((t) => !t.startsWith('sandbox_')); // dropped by 0012
    for (const table of created) expect(OWNERS.get(table), `owner of ${table}`).toBeTruthy();
  });

  it('finds tables in SQL text', () => {
    expect([...tablesNamedIn('select 1 from "user" u join enrolment e on true -- from course\n')]).toEqual(['user', 'enrolment']);
    expect([...tablesNamedIn('with job as (select 1) insert into payment select * from job')]).toEqual(['payment']);
    expect([...tablesNamedIn("update purchase set status = 'paid'")]).toEqual(['purchase']);
  });

  it('lets a domain name only its own tables in SQL text (or the allowlisted ones)', () => {
    const allowed = Object.fromEntries(Object.entries(ALLOWLIST.sqlText).map(([file, entry]) => [file, [...entry.tables].sort()]));
    expect(Object.fromEntries(codeViolations())).toEqual(allowed);
  });

  it('lets a domain import only its own schema file (or the allowlisted ones; eslint.config.js holds the rule)', () => {
    const allowed = Object.fromEntries(Object.entries(ALLOWLIST.schemaImports).map(([file, entry]) => [file, [...entry.owners].sort()]));
    expect(Object.fromEntries(schemaImportViolations())).toEqual(allowed);
  });

  it('lets migration functions and triggers name one owner’s tables (or the allowlisted ones)', () => {
    expect([...crossingSql().keys()].sort()).toEqual(Object.keys(ALLOWLIST.crossingTriggers).sort());
  });

  it('gives every allowlisted entry its reason', () => {
    const reasons = [
      ...Object.values(ALLOWLIST.schemaImports).map((e) => e.reason),
      ...Object.values(ALLOWLIST.sqlText).map((e) => e.reason),
      ...Object.values(ALLOWLIST.crossingTriggers),
    ];
    for (const reason of reasons) expect(reason.length).toBeGreaterThan(20);
  });
});
