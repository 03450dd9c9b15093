import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Comments cite the project's own docs (docs/product.md, docs/ARCHITECTURE.md, docs/decisions.md), never a file
 * outside the repository: the product's shared spec and design notes are not here, so a reader could not follow such
 * a citation. README.md and docs/ may still tell where the product came from.
 */
const root = path.resolve(import.meta.dirname, '../..');

const SOURCE_DIRS = ['server', 'web', 'common', 'e2e', 'scripts', 'bench', '.ci'];
const SKIP_DIRS = new Set(['node_modules', 'dist', 'data', 'test-results', 'playwright-report', 'e2e-screenshots']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|css|html|sql|json|ya?ml|sh)$|^[^.]+$/;
const SELF = path.relative(root, import.meta.filename);

/** Each way a comment or a test title has pointed outside the repository. */
const OUTSIDE: RegExp[] = [
  /\bSPEC\b/,
  /\bSPEC\.md\b/,
  /\bDESIGN\.md\b/,
  /\bDESIGN\s*§/,
  /\bSTYLE\.md\b/,
  /\.\.\/shared\b/,
];

/** Every source file: the listed folders and the configuration files at the root. */
function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(rel);
      } else if (entry.isFile() && TEXT.test(entry.name)) out.push(rel);
    }
  };
  for (const dir of SOURCE_DIRS) if (fs.existsSync(path.join(root, dir))) walk(dir);
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    if (entry.isFile() && /\.(ts|js|mjs|cjs|json)$/.test(entry.name) && entry.name !== 'package-lock.json') {
      out.push(entry.name);
    }
  }
  return out.filter((f) => f !== SELF);
}

/**
 * The text of `file`, or '' when it is gone: boundaries.test.ts writes a deliberate violation for a moment, and a
 * run beside it may list the file before it is removed.
 */
function read(file: string): string {
  try {
    return fs.readFileSync(path.join(root, file), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

/** The lines of `text` that point outside the repository. */
function outsideCitations(text: string): string[] {
  return text.split('\n').filter((line) => OUTSIDE.some((re) => re.test(line)));
}

/** The anchors docs/product.md declares (`<a id="…"></a>`). */
function productAnchors(): Set<string> {
  const doc = fs.readFileSync(path.join(root, 'docs/product.md'), 'utf8');
  return new Set([...doc.matchAll(/<a id="([\w-]+)"><\/a>/g)].map((m) => m[1]!));
}

/** The anchors GitHub gives docs/ARCHITECTURE.md's headings. */
function architectureAnchors(): Set<string> {
  const doc = fs.readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');
  return new Set(
    [...doc.matchAll(/^#+ (.+)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-'),
    ),
  );
}

describe('citations in the source', () => {
  const files = sourceFiles();

  it('finds the source it checks', () => {
    expect(files).toContain('server/src/app.ts');
    expect(files).toContain('web/src/app/routes.tsx');
    expect(files).toContain('common/live.ts');
    expect(files.length).toBeGreaterThan(300);
  });

  it('would catch a citation of a file outside the repository', () => {
    expect(outsideCitations('// the chat room (' + 'SPEC §2 "Chat")')).toHaveLength(1);
    expect(outsideCitations(' * never trusted (' + 'DESIGN.md §3).')).toHaveLength(1);
    expect(outsideCitations("it('follows " + "SPEC §9', () => {")).toHaveLength(1);
    expect(outsideCitations('see ../' + 'shared/STYLE.md')).toHaveLength(1);
    expect(outsideCitations('// the chat room (docs/product.md#chat)')).toHaveLength(0);
  });

  it('point only inside the repository', () => {
    const found = files.flatMap((file) => outsideCitations(read(file)).map((line) => `${file}: ${line.trim()}`));
    expect(found).toEqual([]);
  });

  it('name only sections that docs/product.md and docs/ARCHITECTURE.md have', () => {
    const product = productAnchors();
    const architecture = architectureAnchors();
    const missing: string[] = [];
    for (const file of files) {
      const text = read(file);
      for (const m of text.matchAll(/docs\/product\.md((?:#[\w-]+)(?:, #[\w-]+)*)/g)) {
        for (const anchor of m[1]!.split(', ')) {
          if (!product.has(anchor.slice(1))) missing.push(`${file}: docs/product.md${anchor}`);
        }
      }
      for (const m of text.matchAll(/docs\/ARCHITECTURE\.md#([\w-]+)/g)) {
        if (!architecture.has(m[1]!)) missing.push(`${file}: docs/ARCHITECTURE.md#${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
