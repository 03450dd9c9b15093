import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The rules of eslint.config.js (docs/ARCHITECTURE.md "Layers, and which may import which"; the hooks, type-aware and
 * file-name rules of docs/decisions.md, issue 23 item 5) fail on a deliberate violation, written for the moment at the
 * path where it would do harm.
 */
const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/**
 * Where `file` is written for this run: the process id follows the first part of its name, in that part's case
 * (`violation-123.ts`, `Violation123.tsx`, `users-123.helper.ts`), so the file-name rule judges the name as given.
 */
function runPath(file: string): string {
  return file.replace(/([^/.]+)(\.[^/]*)$/, (_, name: string, rest: string) =>
    /^([A-Z]|use[A-Z])/.test(name) ? `${name}${process.pid}${rest}` : `${name}-${process.pid}${rest}`,
  );
}

/**
 * Lints `code` as the file `file` would be. The file is written for the run (the import plugin reads files from
 * disk to follow their imports, the type-aware rules read it into the TypeScript program) and removed again; the
 * paths are ones no real file has.
 */
async function problems(file: string, code: string): Promise<string[]> {
  const at = path.join(root, runPath(file));
  if (fs.existsSync(at)) throw new Error(`${file} exists: pick a path no real file has`);
  fs.writeFileSync(at, code);
  try {
    const [result] = await eslint.lintFiles([at]);
    return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
  } finally {
    fs.rmSync(at, { force: true });
  }
}

const VIOLATIONS: { rule: string; file: string; code: string; says: RegExp }[] = [
  {
    rule: "a module reaches into another module's repository",
    file: 'server/src/modules/users/violation.ts',
    code: "import { insertPicture } from '../pictures/pictures.repository';\nexport const x = insertPicture;\n",
    says: /no-restricted-imports: '..\/pictures\/pictures.repository' import is restricted/,
  },
  {
    rule: "a module calls another module's routes",
    file: 'server/src/modules/users/violation.ts',
    code: "import { pictureRoutes } from '../pictures/pictures.routes';\nexport const x = pictureRoutes;\n",
    says: /no-restricted-imports: '..\/pictures\/pictures.routes' import is restricted/,
  },
  {
    rule: 'a service presents its answer instead of returning rows to the route',
    file: 'server/src/modules/users/users.service.ts',
    code: "import { presentUserInfo } from './users.presenter';\nexport const x = presentUserInfo;\n",
    says: /no-restricted-imports: '.\/users.presenter' import is restricted/,
  },
  {
    rule: 'a repository imports a presenter',
    file: 'server/src/modules/chat/chat.repository.ts',
    code: "import { presentMessage } from './chat.presenter';\nexport const x = presentMessage;\n",
    says: /no-restricted-imports: '.\/chat.presenter' import is restricted/,
  },
  {
    rule: 'a job reads a repository instead of a service',
    file: 'server/src/jobs/violation.ts',
    code: "import { refreshTrending } from '../modules/pictures/ranking.repository';\nexport const x = refreshTrending;\n",
    says: /no-restricted-imports/,
  },
  {
    rule: 'the ledger answers HTTP or sends live events itself',
    file: 'server/src/ledger/violation.ts',
    code: "import { notFound } from '../http/errors';\nimport { Hub } from '../live/hub';\nexport const x = [notFound, Hub];\n",
    says: /no-restricted-imports: '..\/http\/errors'/,
  },
  {
    rule: 'the database layer knows about live events',
    file: 'server/src/db/violation.ts',
    code: "import { MemoryBus } from '../live/bus';\nexport const x = MemoryBus;\n",
    says: /no-restricted-imports: '..\/live\/bus'/,
  },
  {
    rule: 'the live hub knows a domain',
    file: 'server/src/live/violation.ts',
    code: "import { ownProfile } from '../modules/users/users.service';\nexport const x = ownProfile;\n",
    says: /no-restricted-imports/,
  },
  {
    rule: 'a module publishes a live event around the unit of work',
    file: 'server/src/modules/users/violation.ts',
    code: "declare const ctx: { bus: { publish(...a: unknown[]): void } };\nctx.bus.publish('balance', 'update', { value: 1 }, 7);\n",
    says: /no-restricted-syntax: Live events leave through the unit of work/,
  },
  {
    rule: "a job hands an event to this instance's hub itself",
    file: 'server/src/jobs/violation.ts',
    code: "declare const ctx: { live: { deliver(e: unknown): void } };\nctx.live.deliver({ ch: 'chat' });\n",
    says: /no-restricted-syntax: Live events leave through the unit of work/,
  },
  {
    rule: 'the server imports the web client',
    file: 'server/src/modules/users/violation.ts',
    code: "import { api } from '../../../../web/src/lib/api';\nexport const x = api;\n",
    says: /The server and the web client meet only in common/,
  },
  {
    rule: 'a web feature imports the shell',
    file: 'web/src/features/pictures/components/Violation.tsx',
    code: "import { Balance } from '../../../app/UserArea';\nexport const x = Balance;\n",
    says: /import\/no-restricted-paths: .*A feature never imports the shell or a page/,
  },
  {
    rule: "a web feature reaches into another feature's components",
    file: 'web/src/features/payments/components/Violation.tsx',
    code: "import { Avatar } from '../../users/components/Avatar';\nexport const x = Avatar;\n",
    says: /A feature uses another feature's api\/ folder only/,
  },
  {
    rule: 'shared web code imports a feature',
    file: 'web/src/lib/violation.ts',
    code: "import { profileQuery } from '../features/users/api/profile';\nexport const x = profileQuery;\n",
    says: /Shared code \(lib\/, hooks\/, components\/\) never imports a feature/,
  },
  {
    rule: 'the web client takes a schema value (TypeBox code) instead of a type',
    file: 'web/src/features/pictures/api/violation.ts',
    code: "import { MAX_PAGE } from '../../../../../common/api/pictures';\nexport const x = MAX_PAGE;\n",
    says: /Only types from common\/api and typebox/,
  },
  {
    rule: 'the web client imports the server',
    file: 'web/src/lib/violation.ts',
    code: "import { loadConfig } from '../../../server/src/config';\nexport const x = loadConfig;\n",
    says: /no-restricted-imports: '..\/..\/..\/server\/src\/config' import is restricted/,
  },
  {
    rule: 'a component calls a hook conditionally',
    file: 'web/src/features/pictures/components/Violation.tsx',
    code: "import { useState } from 'react';\nexport function Violation({ on }: { on: boolean }) {\n  if (on) useState(0);\n  return null;\n}\n",
    says: /react-hooks\/rules-of-hooks: React Hook "useState" is called conditionally/,
  },
  {
    rule: 'an effect leaves out a value it reads',
    file: 'web/src/features/pictures/components/Violation.tsx',
    code: "import { useEffect } from 'react';\nexport function Violation({ id }: { id: number }) {\n  useEffect(() => console.info(id), []);\n  return null;\n}\n",
    says: /react-hooks\/exhaustive-deps: React Hook useEffect has a missing dependency: 'id'/,
  },
  {
    rule: 'a promise is left floating (its error lost)',
    file: 'server/src/modules/users/violation.ts',
    code: 'export async function save() {}\nexport function caller() {\n  save();\n}\n',
    says: /@typescript-eslint\/no-floating-promises/,
  },
  {
    rule: 'a switch over a union forgets a member behind a default',
    file: 'common/violation.ts',
    code: "export function f(x: 'a' | 'b') {\n  switch (x) {\n    case 'a':\n      return 1;\n    default:\n      return 2;\n  }\n}\n",
    says: /@typescript-eslint\/switch-exhaustiveness-check: Switch is not exhaustive. Cases not matched: "b"/,
  },
  {
    rule: 'a server file names a role the layout does not have',
    file: 'server/src/modules/users/users.helper.ts',
    code: 'export const x = 1;\n',
    says: /check-file\/filename-naming-convention/,
  },
  {
    rule: 'a web component file is not PascalCase',
    file: 'web/src/features/pictures/components/violation.tsx',
    code: 'export const x = 1;\n',
    says: /check-file\/filename-naming-convention/,
  },
  {
    rule: 'a web helper file is camelCase',
    file: 'web/src/lib/moneyViolation.ts',
    code: 'export const x = 1;\n',
    says: /check-file\/filename-naming-convention/,
  },
];

describe('eslint boundaries', () => {
  // The type-aware rules read the whole TypeScript program on the first file: a minute or more on a busy machine.
  beforeAll(async () => {
    await problems('common/warm-up.ts', 'export const x = 1;\n');
  }, 300_000);

  for (const v of VIOLATIONS) {
    it(`fails when ${v.rule}`, async () => {
      expect((await problems(v.file, v.code)).join('\n')).toMatch(v.says);
    });
  }

  it('passes the same files when they import what they may', async () => {
    const allowed = "import { pictureAuthor } from '../pictures/pictures.service';\nexport const x = pictureAuthor;\n";
    expect(await problems('server/src/modules/users/violation.ts', allowed)).toEqual([]);
    const presents = "import { presentUserInfo } from './users.presenter';\nexport const x = presentUserInfo;\n";
    expect(await problems('server/src/modules/users/users.routes.ts', presents)).toEqual([]);
    const api = "import { useProfile } from '../../users/api/profile';\nexport const x = useProfile;\n";
    expect(await problems('web/src/features/payments/components/Violation.tsx', api)).toEqual([]);
    const named = 'export const x = 1;\n';
    expect(await problems('server/src/modules/users/users.service.ts', named)).toEqual([]);
    expect(await problems('server/src/modules/users/name-rules.ts', named)).toEqual([]);
    expect(await problems('web/src/hooks/useViolation.ts', named)).toEqual([]);
    expect(await problems('web/src/lib/kebab-violation.ts', named)).toEqual([]);
  });

  describe('import cycles', () => {
    const dir = path.join(root, `server/src/lint-fixture-${process.pid}`);
    beforeAll(() => {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "import { a } from './a';\nexport const b = () => a;\n");
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('fails on two files that import each other', async () => {
      const [result] = await eslint.lintFiles([path.join(dir, 'a.ts')]);
      expect(result!.messages.map((m) => m.ruleId)).toContain('import/no-cycle');
    });
  });
});
