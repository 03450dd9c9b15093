import type { Names } from './names';

/*
 * The files of a new domain (docs/ARCHITECTURE.md "Adding a domain: the checklist"), one small function per file,
 * for `npm run new:domain NAME` (scripts/new-domain.ts). The domain they write is a list anybody reads, a thing a
 * signed-in user adds, and removing one's own: the least that shows every role at work. Prettier formats the output.
 */

/** common/ from a module's folder, with the opening quote. */
const COMMON = `'../../../../common`;

/** Step 1: the routes' schemas and their types. */
export const apiSchemas = (n: Names) => `import { Type, type Static } from 'typebox';
import { Digits } from './shared';

/** The longest title of a ${n.words} (docs/product.md#${n.domain}). */
export const MAX_${n.ENTRY}_TITLE = 100;
/** How many ${n.domain} GET /api/${n.domain} answers, newest first. */
export const ${n.ENTRY}_PAGE = 50;

/** One ${n.words} as it leaves the server (docs/product.md#${n.domain}). */
export const ${n.Entry} = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer({ description: 'who added it' }),
  title: Type.String(),
  createdOn: Type.String({ description: 'ISO 8601' }),
});
export type ${n.Entry} = Static<typeof ${n.Entry}>;

/** GET /api/${n.domain}: the newest ${n.domain}, newest first. */
export const ${n.Entry}List = Type.Array(${n.Entry});
export type ${n.Entry}List = Static<typeof ${n.Entry}List>;

/** POST /api/${n.domain}: a new ${n.words} of the signed-in user. */
export const New${n.Entry} = Type.Object({
  title: Type.String({ minLength: 1, maxLength: MAX_${n.ENTRY}_TITLE }),
});
export type New${n.Entry} = Static<typeof New${n.Entry}>;

/** DELETE /api/${n.domain}/{id}. */
export const ${n.Entry}Params = Type.Object({ id: Digits(15, '${n.words} id') });
export type ${n.Entry}Params = Static<typeof ${n.Entry}Params>;
`;

/** Step 2: the domain's table (drizzle.config.ts finds it; drizzle-kit writes its migration). */
export const tables = (n: Names) => `import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../../db/core.tables';

/** ${n.Domain} (docs/product.md#${n.domain}): one row per ${n.words}, with the user who added it. */
export const ${n.domain} = pgTable(
  '${n.domain}',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('${n.domain}_user').on(t.userId, t.id)],
);
`;

/** Step 3: all of the domain's SQL, its row types from the table. */
export const repository = (n: Names) => `import { sql } from 'drizzle-orm';
import { sqlRows, type Columns, type Executor } from '../../db/connection';
import { ${n.domain} } from './${n.domain}.tables';

/** All of the ${n.domain}' SQL (docs/product.md#${n.domain}), taking the db or the transaction of a command. */

export type ${n.Entry}Row = Columns<typeof ${n.domain}, 'id' | 'user_id' | 'title' | 'created_at'>;

const COLUMNS = sql\`id, user_id, title, created_at\`;

/** The newest ${n.domain}, newest first (ids grow with time). */
export function newest${n.Domain}(exec: Executor, limit: number): Promise<${n.Entry}Row[]> {
  return sqlRows(exec, sql<${n.Entry}Row>\`SELECT \${COLUMNS} FROM \${${n.domain}} ORDER BY id DESC LIMIT \${limit}\`);
}

export async function ${n.entry}ById(exec: Executor, id: number): Promise<${n.Entry}Row | undefined> {
  const [row] = await sqlRows(exec, sql<${n.Entry}Row>\`SELECT \${COLUMNS} FROM \${${n.domain}} WHERE id = \${id}\`);
  return row;
}

export async function insert${n.Entry}(
  exec: Executor,
  r: { userId: number; title: string; now: Date },
): Promise<${n.Entry}Row> {
  const [row] = await sqlRows(
    exec,
    sql<${n.Entry}Row>\`INSERT INTO \${${n.domain}} (user_id, title, created_at) VALUES (\${r.userId}, \${r.title}, \${r.now})
        RETURNING \${COLUMNS}\`,
  );
  return row!;
}

export async function delete${n.Entry}(exec: Executor, id: number): Promise<void> {
  await exec.execute(sql\`DELETE FROM \${${n.domain}} WHERE id = \${id}\`);
}
`;

/** Step 4's domain side: each multi-row change one function taking the unit of work. */
export const commands = (n: Names) => `import type { New${n.Entry} } from ${COMMON}/api/${n.domain}';
import type { Work } from '../../db/unit-of-work';
import { fieldError } from '../../http/errors';
import * as repo from './${n.domain}.repository';

/*
 * The ${n.domain}' changes (docs/product.md#${n.domain}), each one function taking the caller's unit of work (\`Work\`):
 * its rows, and whatever must commit with them (a ledger command of server/src/ledger/commands.ts, notification
 * events, live events raised with \`work.emit\`), commit or fail together.
 */

export const TEXT = { blank: 'The title cannot be blank.' } as const;

/** Adds a ${n.words} of \`userId\`; a blank title is refused (the schema lets ' ' through). */
export async function add${n.Entry}(work: Work, userId: number, body: New${n.Entry}, now: Date): Promise<repo.${n.Entry}Row> {
  const title = body.title.trim();
  if (title === '') throw fieldError('title', TEXT.blank);
  return repo.insert${n.Entry}(work.tx, { userId, title, now });
}
`;

/** Step 5: reads, single-row changes, and what other modules may call. */
export const service = (n: Names) => `import { ${n.ENTRY}_PAGE } from ${COMMON}/api/${n.domain}';
import type { AppContext } from '../../context';
import type { Actor } from '../../http/authorization';
import { notFound } from '../../http/errors';
import { ${n.domain}Policy, TEXT } from './${n.domain}.policy';
import * as repo from './${n.domain}.repository';

/*
 * The ${n.domain}' reads and single-row changes (docs/product.md#${n.domain}), and what other modules may call; adding one
 * is ${n.domain}.commands.ts. Rows go back to the routes, which present them (${n.domain}.presenter.ts).
 */

export function newest${n.Domain}(ctx: AppContext): Promise<repo.${n.Entry}Row[]> {
  return repo.newest${n.Domain}(ctx.db, ${n.ENTRY}_PAGE);
}

/** Removes a ${n.words}: its author only (the policy's \`remove\`); another user's id answers 404, as an unknown one. */
export async function remove${n.Entry}(ctx: AppContext, actor: Actor, id: number): Promise<repo.${n.Entry}Row> {
  const row = await repo.${n.entry}ById(ctx.db, id);
  if (!row) throw notFound(TEXT.notFound);
  ${n.domain}Policy.authorize(actor, 'remove', { userId: row.user_id });
  await repo.delete${n.Entry}(ctx.db, id);
  return row;
}
`;

/** Step 6: the domain's rules, which routes declare and the service checks. */
export const policy = (n: Names) => `import { policy } from '../../http/authorization';
import { notFound } from '../../http/errors';

export const TEXT = { notFound: '${n.words[0]!.toUpperCase() + n.words.slice(1)} not found.' } as const;

/*
 * The ${n.domain}' rules (docs/product.md#${n.domain}; the rule vocabulary: docs/ARCHITECTURE.md "server/src/http/"):
 * anybody reads the list ('public') and anyone signed in adds one ('user'); a ${n.words} is removed by the user who
 * added it only, and anyone else's call answers 404, as an unknown id does, so whether it exists stays hidden.
 */
export const ${n.domain}Policy = policy('${n.domain}', {
  remove: {
    allow: (actor, ${n.entry}: { userId: number }) => actor?.id === ${n.entry}.userId,
    refuse: () => notFound(TEXT.notFound),
  },
});
`;

/** Step 7: the fields that leave the server. */
export const presenter = (n: Names) => `import type { ${n.Entry} } from ${COMMON}/api/${n.domain}';
import { isoTime } from ${COMMON}/time';
import type { ${n.Entry}Row } from './${n.domain}.repository';

/** The fields of a ${n.words} that leave the server (docs/product.md#${n.domain}). */
export function present${n.Entry}(r: ${n.Entry}Row): ${n.Entry} {
  return { id: r.id, userId: r.user_id, title: r.title, createdOn: isoTime(r.created_at) };
}
`;

/** Step 8: the routes, each with its rule, tag, summary, operationId and answers. */
export const routes = (
  n: Names,
) => `import { New${n.Entry}, ${n.Entry}, ${n.Entry}List, ${n.Entry}Params } from ${COMMON}/api/${n.domain}';
import { FieldErrors, Message } from ${COMMON}/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { add${n.Entry} } from './${n.domain}.commands';
import { ${n.domain}Policy } from './${n.domain}.policy';
import { present${n.Entry} } from './${n.domain}.presenter';
import { newest${n.Domain}, remove${n.Entry} } from './${n.domain}.service';

const tags = ['${n.domain}'];

/** ${n.Domain} (docs/product.md#${n.domain}): the list anybody reads, adding one, removing one's own. */
export async function ${n.domain}Routes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/${n.domain}',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'The newest ${n.domain}, newest first',
        operationId: 'list${n.Domain}',
        tags,
        response: { 200: ${n.Entry}List },
      },
    },
    async () => (await newest${n.Domain}(ctx)).map(present${n.Entry}),
  );

  app.post(
    '/api/${n.domain}',
    {
      // A write: refused to a suspended user (docs/product.md#suspension).
      config: { auth: 'member' },
      schema: {
        summary: 'Add a ${n.words}',
        operationId: 'add${n.Entry}',
        tags,
        body: New${n.Entry},
        response: { 200: ${n.Entry}, 400: FieldErrors, 401: Message },
      },
    },
    async (req) => {
      const user = requireUser(req);
      return present${n.Entry}(await ctx.transact((work) => add${n.Entry}(work, user.id, req.body, ctx.now())));
    },
  );

  app.delete(
    '/api/${n.domain}/:id',
    {
      config: { auth: ${n.domain}Policy.rule('remove') },
      schema: {
        summary: "Remove one of the caller's own ${n.domain}",
        operationId: 'remove${n.Entry}',
        tags,
        params: ${n.Entry}Params,
        response: { 200: ${n.Entry}, 401: Message, 404: Message },
      },
    },
    async (req) => present${n.Entry}(await remove${n.Entry}(ctx, req.user, Number(req.params.id))),
  );
}
`;

/** Step 12: the domain's tests through \`app.inject\`, against a real database. */
export const test = (n: Names) => `import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_${n.ENTRY}_TITLE, type ${n.Entry}, type ${n.Entry}List } from ${COMMON}/api/${n.domain}';
import { sqlRows } from '../../db/connection';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { ${n.domain} } from './${n.domain}.tables';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const count = async () =>
  (await sqlRows(t.ctx.db, sql<{ n: number }>\`SELECT count(*)::int AS n FROM \${${n.domain}}\`))[0]!.n;

async function member(): Promise<{ id: number; client: TestClient }> {
  const user = await makeUser(t.ctx);
  return { id: user.id, client: await signIn(t, user.id) };
}

const add = (c: TestClient, body: Record<string, unknown>) => c.post('/api/${n.domain}', body);
const remove = (c: TestClient, id: number) => c.request({ method: 'DELETE', url: \`/api/${n.domain}/\${id}\` });

describe('${n.domain} (docs/product.md#${n.domain})', () => {
  it('adds a ${n.words} of the signed-in user, listed newest first for anybody', async () => {
    const u = await member();
    const first = await add(u.client, { title: 'First' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<${n.Entry}>()).toEqual({
      id: expect.any(Number),
      userId: u.id,
      title: 'First',
      createdOn: expect.any(String),
    });
    const second = await add(u.client, { title: '  Second  ' });
    expect(second.json<${n.Entry}>().title).toBe('Second');
    const list = await t.client().get('/api/${n.domain}');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<${n.Entry}List>().slice(0, 2)).toEqual([second.json(), first.json()]);
  });

  it('answers 401 to a visitor, storing and removing nothing', async () => {
    const u = await member();
    const mine = (await add(u.client, { title: 'Mine' })).json<${n.Entry}>();
    const before = await count();
    expect((await add(t.client(), { title: 'x' })).statusCode).toBe(401);
    expect((await remove(t.client(), mine.id)).statusCode).toBe(401);
    expect(await count()).toBe(before);
  });

  it('answers 400 to bad input, storing nothing', async () => {
    const u = await member();
    const before = await count();
    for (const body of [{}, { title: '' }, { title: ' ' }, { title: 7 }, { title: 'x'.repeat(MAX_${n.ENTRY}_TITLE + 1) }]) {
      const res = await add(u.client, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()[0].field, JSON.stringify(body)).toBe('title');
    }
    expect(await count()).toBe(before);
    expect((await add(u.client, { title: 'x'.repeat(MAX_${n.ENTRY}_TITLE) })).statusCode).toBe(200);
  });

  it('is removed by the user who added it only: anyone else, or an unknown id, gets 404', async () => {
    const owner = await member();
    const mine = (await add(owner.client, { title: 'Mine' })).json<${n.Entry}>();
    const stranger = await member();
    const refused = await remove(stranger.client, mine.id);
    expect(refused.statusCode, refused.body).toBe(404);
    expect((await remove(owner.client, 987_654_321)).statusCode).toBe(404);
    const removed = await remove(owner.client, mine.id);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual(mine);
    expect((await remove(owner.client, mine.id)).statusCode).toBe(404);
  });
});
`;

/** Step 11: per call a fetcher, its query options and a hook; types only from common/api/. */
export const webApi = (n: Names) => `import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { New${n.Entry}, ${n.Entry}, ${n.Entry}List } from '../../../../../common/api/${n.domain}';
import { useAction } from '../../../hooks/useAction';
import { api } from '../../../lib/api';

/** GET /api/${n.domain}: the newest ${n.domain} (docs/product.md#${n.domain}). */
export const fetch${n.Domain} = () => api<${n.Entry}List>('/api/${n.domain}');
export const ${n.domain}Query = queryOptions({ queryKey: ['${n.domain}'] as const, queryFn: fetch${n.Domain} });
export const use${n.Domain} = () => useQuery(${n.domain}Query);

/** POST /api/${n.domain}: adds a ${n.words} of the signed-in user. */
export const add${n.Entry} = (body: New${n.Entry}) => api<${n.Entry}>('/api/${n.domain}', { body });

/** Adds a ${n.words}, then reads the list again. */
export function useAdd${n.Entry}() {
  const client = useQueryClient();
  return useAction(async (body: New${n.Entry}) => {
    const added = await add${n.Entry}(body);
    await client.invalidateQueries({ queryKey: ${n.domain}Query.queryKey });
    return added;
  });
}
`;

/** Step 11: the feature's first component, for a page of web/src/pages/ to compose. */
export const webList = (n: Names) => `import { LoadFailed } from '../../../components/ui/LoadFailed';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { use${n.Domain} } from '../api/${n.domain}';

export const TEXT = {
  empty: 'Nothing here yet.',
  fetchFailed: 'This list could not be loaded.',
} as const;

/** The newest ${n.domain} (docs/product.md#${n.domain}). */
export function ${n.Domain}List() {
  const list = use${n.Domain}();
  if (list.isPending) return <p className="loading">Loading...</p>;
  if (list.isError) return <LoadFailed text={TEXT.fetchFailed} onRetry={() => void list.refetch()} />;
  if (list.data.length === 0) return <p className="muted">{TEXT.empty}</p>;
  return (
    <ul className="${n.domain}">
      {list.data.map((${n.entry}) => (
        <li key={${n.entry}.id}>
          {${n.entry}.title} <RelativeTime at={${n.entry}.createdOn} />
        </li>
      ))}
    </ul>
  );
}
`;

/** Step 13: the domain's rules under their anchor in docs/product.md. */
export const productSection = (n: Names) => `<a id="${n.domain}"></a>

## ${n.Domain}

- Anybody reads the newest ${n.domain}, newest first (at most 50). A signed-in user adds a ${n.words} with a title of
  1–100 characters (blank is refused: 400); a visitor gets 401. A ${n.words} is removed by the user who added it only;
  anyone else's call, or an unknown id, answers 404.

`;

/** Step 8's registration: the tag in http/openapi.ts. */
export const openApiTag = (n: Names) =>
  `  { name: '${n.domain}', description: '${n.Domain}: the newest, adding one, removing your own' },\n`;

/** Step 6's policy table: how Alice makes one (`OWNED`), and the row of the route that takes its id. */
export const policyOwned = (n: Names) => `  ${n.domain}: {
    table: '${n.domain}',
    make: async (alice) => (await alice.post('/api/${n.domain}', { title: 'Mine' })).json<{ id: number }>().id,
  },
`;

export const policyRow = (n: Names) => `  'DELETE /api/${n.domain}/:id': {
    rule: '${n.domain}.remove',
    request: (w) => ({ method: 'DELETE', url: \`/api/${n.domain}/\${w.owned.${n.domain}}\` }),
    stranger: 404,
    visitor: 401,
  },
`;

/** The suspension test's list: removing one's own stays open to a suspended user (docs/product.md#suspension). */
export const openToSuspended = (n: Names) => `  'DELETE /api/${n.domain}/{id}',
`;

/** The contract test's walk: a success and a refusal of each route. */
export const contractWalk = (n: Names) => `    // ${n.Domain}
    {
      const id = (await post(alice, '/api/${n.domain}', { title: 'A ${n.words}' })).json<{ id: number }>().id;
      await post(alice, '/api/${n.domain}', { title: ' ' });
      await get(t.client(), '/api/${n.domain}');
      await call(bob, { method: 'DELETE', url: \`/api/${n.domain}/\${id}\` });
      await call(alice, { method: 'DELETE', url: \`/api/${n.domain}/\${id}\` });
    }

`;

/** Step 13: the lines of docs/ARCHITECTURE.md's folder list. */
export const architectureServer = (n: Names) =>
  `- \`server/src/modules/${n.domain}/\`: ${n.domain} (docs/product.md#${n.domain}): the list, adding one, removing one's own.\n`;
export const architectureWeb = (n: Names) =>
  `- \`web/src/features/${n.domain}/\`: ${n.domain}: the list (\`${n.Domain}List\`) and the calls of \`api/${n.domain}.ts\`.\n`;
