import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * `npm run test:new-domain`: the proof of `npm run new:domain` (scripts/new-domain.ts). In a copy of the repository
 * (the files git knows, as they are in the work tree, with node_modules linked), it writes two domains, one of a
 * plural name and one without, and the copy then passes what the repository passes: the compiler on every file
 * written or edited, the linter, Prettier, and the domains' own tests with the citations, boundaries, policy table,
 * contract and OpenAPI tests. Minutes long, so not in the unit suite; .ci/run runs it in its unit stream.
 */

const repo = path.resolve(import.meta.dirname, '../..');
let copy: string;

/** A command in the copy; its output when it fails. */
function run(cmd: string, args: string[], cwd = copy): { status: number | null; out: string } {
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'FORCE_COLOR')),
    NO_COLOR: '1',
  };
  const res = spawnSync(cmd, args, { cwd, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
  // eslint-disable-next-line no-control-regex -- colours, should a tool print them anyway
  return { status: res.status, out: `${res.stdout}${res.stderr}`.replace(/\x1b\[[0-9;]*m/g, '') };
}

const generate = (...args: string[]) =>
  run('npx', ['tsx', path.join(copy, 'scripts/new-domain.ts'), ...args, '--root', copy]);

/** The files of the copy that differ from the repository or are new: what the generator wrote. */
function written(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(copy, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.name === 'node_modules') continue;
      if (entry.isDirectory()) walk(rel);
      else if (!fs.existsSync(path.join(repo, rel))) out.push(rel);
      else if (!fs.readFileSync(path.join(repo, rel)).equals(fs.readFileSync(path.join(copy, rel)))) out.push(rel);
    }
  };
  walk('.');
  return out.sort();
}

beforeAll(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'new-domain-'));
  const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: repo, encoding: 'utf8' })
    .stdout.split('\0')
    .filter((f) => f && fs.existsSync(path.join(repo, f)));
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    fs.copyFileSync(path.join(repo, file), path.join(copy, file));
  }
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
});
afterAll(() => {
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

describe('npm run new:domain', () => {
  it('refuses a bad, reserved or existing name, and a dry run writes nothing', () => {
    for (const [name, says] of [
      ['Widgets', /not a domain name/],
      ['wi', /not a domain name/],
      ['wid-gets', /not a domain name/],
      ['shared', /reserved/],
      ['classes', /reserved/],
      ['charity', /exists already/],
      ['sessions', /table "sessions" exists already/],
    ] as const) {
      const res = generate(name);
      expect(res.status, res.out).toBe(1);
      expect(res.out, name).toMatch(says);
    }
    const dry = generate('widgets', '--dry-run');
    expect(dry.status, dry.out).toBe(0);
    expect(dry.out).toContain('would create server/src/modules/widgets/widgets.routes.ts');
    expect(written()).toEqual([]);
  });

  it('refuses, writing nothing, when a file it edits lost its marker', () => {
    const app = path.join(copy, 'server/src/app.ts');
    const source = fs.readFileSync(app, 'utf8');
    fs.writeFileSync(app, source.replace('// new-domain: routes', '// routes'));
    try {
      const res = generate('widgets');
      expect(res.status, res.out).toBe(1);
      expect(res.out).toMatch(/Nothing written\. app\.ts: the marker "\/\/ new-domain: routes" is missing/);
      expect(written()).toEqual(['server/src/app.ts']);
    } finally {
      fs.writeFileSync(app, source);
    }
  });

  it('writes two domains that compile, lint, and pass their tests and the repository-wide ones', () => {
    for (const name of ['widgets', 'curation']) {
      const res = generate(name);
      expect(res.status, res.out).toBe(0);
    }
    const files = written();
    expect(files).toEqual(
      expect.arrayContaining([
        'common/api/curation.ts',
        'common/api/widgets.ts',
        'server/src/modules/widgets/widgets.policy.ts',
        'server/src/modules/curation/curation.test.ts',
        'web/src/features/widgets/components/WidgetsList.tsx',
        'web/src/features/curation/api/curation.ts',
        'server/src/app.ts',
        'docs/product.md',
      ]),
    );
    expect(files.filter((f) => /migrations\/\d{4}_(widgets|curation)\.sql$/.test(f))).toHaveLength(2);
    const again = generate('widgets');
    expect(again.status, again.out).toBe(1);
    expect(again.out).toMatch(/exists already/);

    const code = files.filter((f) => /\.tsx?$/.test(f));
    fs.writeFileSync(
      path.join(copy, 'tsconfig.new-domain.json'),
      JSON.stringify({ extends: './tsconfig.json', include: code }),
    );
    const tsc = run('npx', ['tsc', '-p', 'tsconfig.new-domain.json', '--noEmit']);
    expect(tsc.status, tsc.out).toBe(0);
    const lint = run('npx', ['eslint', '--no-cache', ...code]);
    expect(lint.status, lint.out).toBe(0);
    const pretty = run('npx', ['prettier', '--check', ...files.filter((f) => !f.includes('/migrations/'))]);
    expect(pretty.status, pretty.out).toBe(0);

    const tests = run('npx', [
      'vitest',
      'run',
      'server/src/modules/widgets',
      'server/src/modules/curation',
      'server/src/citations.test.ts',
      'server/src/boundaries.test.ts',
      'server/src/http/authorization.policy.test.ts',
      'server/src/http/contract.test.ts',
      'server/src/http/openapi.test.ts',
      'server/src/http/suspension.test.ts',
    ]);
    expect(tests.status, tests.out).toBe(0);
    expect(tests.out).toMatch(/Test Files\s+\S*8 passed/);
  });
});
