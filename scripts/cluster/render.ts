import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../server/src/test/server-process';

/**
 * A configuration file of `deploy/` with its `${NAME}` values filled in. Every placeholder must be given: a file
 * written with one left over would start a server on a wrong setting.
 */
export function renderDeployFile(name: string, values: Record<string, string | number>): string {
  const template = fs.readFileSync(path.join(repoRoot, 'deploy', name), 'utf8');
  return template.replace(/\$\{([A-Z0-9_]+)\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`deploy/${name}: no value for \${${key}}`);
    return String(value);
  });
}
