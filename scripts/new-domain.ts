import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { nameProblem, namesOf, NAME_RULE, type Names } from './new-domain/names';
import * as tpl from './new-domain/templates';

/*
 * `npm run new:domain NAME [--dry-run] [--root DIR]`: a new domain in the shape of docs/ARCHITECTURE.md "Adding a
 * domain: the checklist": its schemas, table and migration, repository, commands, service, policy, presenter, routes
 * and tests, the web feature's calls and first component, registered (app.ts, the OpenAPI tag, the policy table, the
 * contract walk) and documented (docs/product.md, docs/ARCHITECTURE.md). Every change is worked out before anything
 * is written: a marker missing from a file to edit stops it with nothing written.
 */

const USAGE = 'Usage: npm run new:domain NAME [-- --dry-run] [-- --root DIR]';

/** A file written whole, or an existing file changed at its markers. */
interface Change {
  file: string;
  kind: 'create' | 'edit';
  text: string;
}

class Refusal extends Error {}

/** Inserts `text` on the line above the first line containing `marker`; refuses when there is none. */
function above(file: string, source: string, marker: string, text: string): string {
  const at = source.indexOf(marker);
  if (at < 0) throw new Refusal(`${file}: the marker "${marker}" is missing; put it back where new domains go.`);
  const lineStart = source.lastIndexOf('\n', at) + 1;
  return source.slice(0, lineStart) + text + source.slice(lineStart);
}

/** Inserts `text` right before `marker` (within its line); refuses when it is missing. */
function before(file: string, source: string, marker: string, text: string): string {
  const at = source.indexOf(marker);
  if (at < 0) throw new Refusal(`${file}: "${marker}" is missing; it is where a new domain is added.`);
  return source.slice(0, at) + text + source.slice(at);
}

/** Every file the domain writes or changes, worked out in memory. */
function plan(root: string, n: Names): Change[] {
  const d = n.domain;
  const mod = `server/src/modules/${d}`;
  const created: [string, string][] = [
    [`common/api/${d}.ts`, tpl.apiSchemas(n)],
    [`${mod}/${d}.tables.ts`, tpl.tables(n)],
    [`${mod}/${d}.repository.ts`, tpl.repository(n)],
    [`${mod}/${d}.commands.ts`, tpl.commands(n)],
    [`${mod}/${d}.service.ts`, tpl.service(n)],
    [`${mod}/${d}.policy.ts`, tpl.policy(n)],
    [`${mod}/${d}.presenter.ts`, tpl.presenter(n)],
    [`${mod}/${d}.routes.ts`, tpl.routes(n)],
    [`${mod}/${d}.test.ts`, tpl.test(n)],
    [`web/src/features/${d}/api/${d}.ts`, tpl.webApi(n)],
    [`web/src/features/${d}/components/${n.Domain}List.tsx`, tpl.webList(n)],
  ];
  for (const [file] of created) {
    if (fs.existsSync(path.join(root, file))) throw new Refusal(`${file} exists already.`);
  }

  const read = (file: string) => {
    const at = path.join(root, file);
    if (!fs.existsSync(at)) throw new Refusal(`${file} is missing: run this in the repository (or --root DIR).`);
    return fs.readFileSync(at, 'utf8');
  };
  const edit = (file: string, change: (source: string) => string): [string, string] => [file, change(read(file))];
  const edited: [string, string][] = [
    edit('server/src/app.ts', (s) => {
      s = above('app.ts', s, '// new-domain: imports', `import { ${d}Routes } from './modules/${d}/${d}.routes';\n`);
      return above('app.ts', s, '// new-domain: routes', `  await ${d}Routes(app, ctx);\n`);
    }),
    edit('server/src/http/openapi.ts', (s) => above('openapi.ts', s, '// new-domain: tags', tpl.openApiTag(n))),
    edit('server/src/http/authorization.policy.test.ts', (s) => {
      s = above('authorization.policy.test.ts', s, '// new-domain: owned', tpl.policyOwned(n));
      return above('authorization.policy.test.ts', s, '// new-domain: rows', tpl.policyRow(n));
    }),
    edit('server/src/http/contract.test.ts', (s) =>
      above('contract.test.ts', s, '// new-domain: walk', tpl.contractWalk(n)),
    ),
    edit('server/src/http/suspension.test.ts', (s) =>
      above('suspension.test.ts', s, '// new-domain: open to suspended', tpl.openToSuspended(n)),
    ),
    edit('docs/product.md', (s) => {
      s = before('docs/product.md', s, '[limits](#limits)', `[${d}](#${d}) · `);
      return above('docs/product.md', s, '<a id="limits"></a>', tpl.productSection(n));
    }),
    edit('docs/ARCHITECTURE.md', (s) => {
      s = above('docs/ARCHITECTURE.md', s, '- `server/src/admin/`:', tpl.architectureServer(n));
      return above('docs/ARCHITECTURE.md', s, '- `web/src/lib/`:', tpl.architectureWeb(n));
    }),
  ];
  return [
    ...created.map(([file, text]) => ({ file, kind: 'create' as const, text })),
    ...edited.map(([file, text]) => ({ file, kind: 'edit' as const, text })),
  ];
}

const MIGRATIONS = 'server/src/db/migrations';

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}

/**
 * The domain's migration, written by drizzle-kit from its table (docs/ARCHITECTURE.md, checklist step 2), so the
 * generated test runs at once. The migrator applies a migration only when it is newer than the last one applied
 * (the journal's `when`), so the new one is dated after every earlier one, whatever the clock says.
 */
function migrate(root: string, n: Names): string {
  const journalPath = path.join(root, MIGRATIONS, 'meta/_journal.json');
  const count = (JSON.parse(fs.readFileSync(journalPath, 'utf8')) as Journal).entries.length;
  const run = spawnSync('npx', ['drizzle-kit', 'generate', '--name', n.domain], { cwd: root, encoding: 'utf8' });
  const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as Journal;
  const added = journal.entries.slice(count);
  if (run.status !== 0 || added.length !== 1) {
    throw new Refusal(
      `drizzle-kit generate did not write one migration (exit ${run.status}):\n${run.stdout}${run.stderr}\n` +
        'The files are written; write the migration with `npm run db:generate` and check its SQL.',
    );
  }
  const entry = added[0]!;
  const latest = Math.max(...journal.entries.slice(0, count).map((e) => e.when));
  if (entry.when <= latest) {
    entry.when = latest + 1;
    fs.writeFileSync(journalPath, JSON.stringify(journal, null, 2) + '\n');
  }
  const file = `${MIGRATIONS}/${entry.tag}.sql`;
  const sqlText = fs.readFileSync(path.join(root, file), 'utf8');
  if (!sqlText.includes(`CREATE TABLE "${n.domain}"`)) {
    throw new Refusal(
      `${file} does not create the table "${n.domain}": read it, and the tables it was generated from.`,
    );
  }
  const others = sqlText
    .split('--> statement-breakpoint')
    .filter((statement) => statement.trim() && !statement.includes(`"${n.domain}"`));
  if (others.length) {
    console.warn(`${file} also holds changes of other tables (they were pending); read it before committing.`);
  }
  return file;
}

/** What the author still does, beyond the skeleton (the checklist's steps the generator does not take). */
const NEXT = (n: Names) => `
Next (docs/ARCHITECTURE.md "Adding a domain: the checklist"):
  - replace the skeleton's "title" with the domain's own fields, in common/api/${n.domain}.ts and ${n.domain}.tables.ts,
    then \`npm run db:generate\` again (or edit the new migration before anyone applied it);
  - write the rules in docs/product.md#${n.domain} and decisions in docs/decisions.md;
  - money or items: a named command in server/src/ledger/commands.ts, called from ${n.domain}.commands.ts;
  - a live channel: common/live.ts, \`work.emit\` in the command, a hook in web/src/features/${n.domain}/lib/;
  - jobs (server/src/jobs/), a page in web/src/pages/ and its route, browser tests in e2e/, the chaos actor;
  - npm run check && npx vitest run server/src/modules/${n.domain}`;

function main(argv: string[]): number {
  const dryRun = argv.includes('--dry-run');
  const rootAt = argv.indexOf('--root');
  const root = path.resolve(rootAt >= 0 ? (argv[rootAt + 1] ?? '') : path.join(import.meta.dirname, '..'));
  const words = argv.filter((a, i) => !a.startsWith('--') && !(rootAt >= 0 && i === rootAt + 1));
  if (words.length !== 1) {
    console.error(`${USAGE}\n(${NAME_RULE})`);
    return 1;
  }
  const domain = words[0]!;
  const problem = nameProblem(domain, root);
  if (problem) {
    console.error(problem);
    return 1;
  }
  const n = namesOf(domain);
  let changes: Change[];
  try {
    changes = plan(root, n);
  } catch (err) {
    if (err instanceof Refusal) {
      console.error(`Nothing written. ${err.message}`);
      return 1;
    }
    throw err;
  }
  if (dryRun) {
    for (const c of changes) console.log(`${c.kind === 'create' ? 'would create' : 'would edit  '} ${c.file}`);
    console.log(`would run    drizzle-kit generate --name ${domain} (a migration in ${MIGRATIONS})`);
    return 0;
  }
  for (const c of changes) {
    fs.mkdirSync(path.dirname(path.join(root, c.file)), { recursive: true });
    fs.writeFileSync(path.join(root, c.file), c.text);
    console.log(`${c.kind === 'create' ? 'created' : 'edited '} ${c.file}`);
  }
  const prettier = spawnSync('npx', ['prettier', '--write', '--log-level', 'warn', ...changes.map((c) => c.file)], {
    cwd: root,
    stdio: 'inherit',
  });
  if (prettier.status !== 0) {
    console.error('prettier could not format the files above.');
    return 1;
  }
  try {
    console.log(`created ${migrate(root, n)}`);
  } catch (err) {
    if (err instanceof Refusal) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
  console.log(NEXT(n));
  return 0;
}

process.exitCode = main(process.argv.slice(2));
