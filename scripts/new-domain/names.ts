import fs from 'node:fs';
import path from 'node:path';

/** The names one domain's files and symbols take, all derived from the domain's name (`widgets`). */
export interface Names {
  /** The domain as typed: `widgets` (folders, files, the table, the tag, the URL, the anchor). */
  domain: string;
  /** `Widgets`: the web component's name and the headings. */
  Domain: string;
  /** One thing of the domain: `Widget` (its schema and type), `CurationEntry` for a name without a plural. */
  Entry: string;
  /** `widget`: variables and function names for one thing. */
  entry: string;
  /** `WIDGET`: its constants. */
  ENTRY: string;
  /** `widget`, `curation entry`: one thing of the domain in the texts a user reads. */
  words: string;
}

/** The words a domain cannot be named: the layers and folders of the layout, and names the API already uses. */
export const RESERVED = new Set([
  'api',
  'app',
  'common',
  'components',
  'config',
  'constants',
  'context',
  'core',
  'db',
  'docs',
  'features',
  'hooks',
  'http',
  'jobs',
  'ledger',
  'lib',
  'live',
  'mail',
  'modules',
  'openapi',
  'pages',
  'public',
  'seed',
  'server',
  'shared',
  'storage',
  'test',
  'user',
  'web',
]);

/** JavaScript's and TypeScript's own words: the domain, and one thing of it, name variables. */
const KEYWORDS = new Set(
  (
    'any arguments await boolean break case catch class const continue debugger declare default delete do else enum ' +
    'eval export extends false finally for function get implements import instanceof interface keyof let module ' +
    'namespace never new null number object package private protected readonly require return set static string ' +
    'super switch symbol this throw true try type typeof undefined unknown var void while with yield'
  ).split(' '),
);

export const NAME_RULE = 'a domain name is 3 to 20 lowercase letters (a-z), such as "widgets"';

/** Why `domain` cannot be a new domain in the repository at `root`, or undefined when it can. */
export function nameProblem(domain: string, root: string): string | undefined {
  if (!/^[a-z]{3,20}$/.test(domain)) return `"${domain}" is not a domain name: ${NAME_RULE}.`;
  if (RESERVED.has(domain)) return `"${domain}" is reserved: it names a layer or folder of the layout.`;
  if (KEYWORDS.has(domain) || KEYWORDS.has(singular(domain))) {
    return `"${domain}" is reserved: it, or one thing of it ("${singular(domain)}"), is a word of JavaScript.`;
  }
  const taken = [
    `server/src/modules/${domain}`,
    `web/src/features/${domain}`,
    `common/api/${domain}.ts`,
    `common/${domain}.ts`,
  ].filter((p) => fs.existsSync(path.join(root, p)));
  if (taken.length) return `The domain "${domain}" exists already: ${taken.join(', ')}.`;
  const table = tableFiles(path.join(root, 'server/src')).find((file) =>
    new RegExp(`pgTable\\(\\s*'${domain}'`).test(fs.readFileSync(file, 'utf8')),
  );
  if (table) return `The table "${domain}" exists already: ${path.relative(root, table)}.`;
  return undefined;
}

/** Every `*.tables.ts` under `dir`: the new domain's table takes its name, which no other table may have. */
function tableFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.tables.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** `widgets` → `widget`, `pushes` → `push`, `stories` → `story`; a name without a plural stays as it is. */
export function singular(domain: string): string {
  if (/ies$/.test(domain)) return domain.slice(0, -3) + 'y';
  if (/(sh|ch|x|ss)es$/.test(domain)) return domain.slice(0, -2);
  if (/[^su]s$/.test(domain) && domain.length > 3) return domain.slice(0, -1);
  return domain;
}

const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1);

export function namesOf(domain: string): Names {
  const one = singular(domain);
  const Entry = one === domain ? `${capital(domain)}Entry` : capital(one);
  const entry = Entry[0]!.toLowerCase() + Entry.slice(1);
  return {
    domain,
    Domain: capital(domain),
    Entry,
    entry,
    ENTRY: entry.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase(),
    words: one === domain ? `${domain} entry` : one,
  };
}
