import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

/**
 * Checks real answers against the OpenAPI document the app serves (issue 22, item 22): the status must be one the
 * operation declares, the content type one that answer declares, and a JSON body must match its schema. JSON Schema
 * 2020-12 is OpenAPI 3.1's dialect; ajv is the validator Fastify itself uses.
 */

export interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  responses: Record<string, { description: string; content?: Record<string, { schema: object }> }>;
  requestBody?: { content: Record<string, { schema: object }> };
}

export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<object, ValidateFunction>();
  private readonly templates: { method: string; path: string; match: RegExp; op: Operation }[] = [];
  /** Per operation ("GET /api/x/{id}"), the statuses seen and checked. */
  readonly seen = new Map<string, Set<number>>();
  readonly problems: string[] = [];

  constructor(readonly doc: OpenApiDoc) {
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+');
        this.templates.push({ method: method.toUpperCase(), path, match: new RegExp(`^${pattern}$`), op });
      }
    }
    // A fixed path before a template that would also match it (/api/user-transactions.csv before .../{type}).
    this.templates.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  }

  /** The documented operation a request went to, as "METHOD /path/{param}". */
  operationOf(method: string, url: string): { name: string; op: Operation } | undefined {
    const path = url.split('?')[0]!;
    const found = this.templates.find((t) => t.method === method && t.match.test(path));
    return found && { name: `${found.method} ${found.path}`, op: found.op };
  }

  /** Checks one answer; a problem is kept in `problems` (and returned) rather than thrown, to see them all at once. */
  check(method: string, url: string, answer: Answer): string | undefined {
    const found = this.operationOf(method, url);
    if (!found) return this.problem(`${method} ${url}: no such operation in the document`);
    const statuses = this.seen.get(found.name) ?? new Set<number>();
    statuses.add(answer.statusCode);
    this.seen.set(found.name, statuses);
    const declared = found.op.responses[String(answer.statusCode)];
    const what = `${found.name} answered ${answer.statusCode}`;
    if (!declared) return this.problem(`${what}, which the document does not declare: ${answer.body.slice(0, 200)}`);
    if (!declared.content) return undefined;
    const type = String(answer.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const media = Object.entries(declared.content).find(
      ([name]) => name === type || (name.endsWith('/*') && type.startsWith(name.slice(0, -1))),
    );
    if (!media) return this.problem(`${what} as ${type || 'no type'}; declared: ${Object.keys(declared.content)}`);
    if (!/json/.test(type)) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return this.problem(`${what} with a body that is not JSON: ${answer.body.slice(0, 200)}`);
    }
    const validate = this.validatorFor(media[1].schema);
    if (!validate(body)) {
      return this.problem(`${what} with a body off its schema: ${this.ajv.errorsText(validate.errors)}`);
    }
    return undefined;
  }

  private validatorFor(schema: object): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  private problem(text: string): string {
    this.problems.push(text);
    return text;
  }
}
