// The house rules as functions over source files (name relative to src/, text), so each can be run
// on the tree and on a small example that breaks it (test/architecture/rules.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { filesUnder } from '../../harness/files.js';

export interface SourceFile {
  /** Path relative to src/, with forward slashes: modules/tickets/service.ts */
  name: string;
  text: string;
}

export function readSources(root: string): SourceFile[] {
  return filesUnder(root, { keep: (name) => name.endsWith('.ts') }).map((file) => ({
    name: path.relative(root, file).split(path.sep).join('/'),
    text: fs.readFileSync(file, 'utf8'),
  }));
}

/** The text without comments, so a comment naming selectFrom( or src/http/ breaks no rule. */
export function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

// ---- SQL only in repository and query files, migrations and src/db/ ----

const QUERY_BUILDER = /\.(selectFrom|updateTable|insertInto|deleteFrom|mergeInto|selectNoFrom)\(/;
const RAW_SQL = /\bsql(<[^>\n]*>)?`|\bsql\.(raw|lit|ref|id|table|join|val)\(/;

/** repository.ts, <name>-repository.ts, <name>-query.ts, <name>-sql.ts, or anything under db/. */
export function isQueryFile(name: string): boolean {
  return name.startsWith('db/') || /(^|\/)([a-z-]+-)?repository\.ts$|-(query|sql)\.ts$/.test(name);
}

/** Files that build queries or write SQL outside the places for it. */
export function sqlOutsideQueryFiles(files: SourceFile[], allowed: Record<string, string> = {}): string[] {
  return files
    .filter((f) => !isQueryFile(f.name) && !(f.name in allowed))
    .filter((f) => {
      const body = code(f.text);
      return QUERY_BUILDER.test(body) || RAW_SQL.test(body);
    })
    .map((f) => f.name);
}

// ---- imports ----

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

/** The src/ files a file imports (relative imports only; type-only imports included). */
export function importsOf(file: SourceFile): string[] {
  const dir = path.posix.dirname(file.name);
  const found: string[] = [];
  for (const match of code(file.text).matchAll(IMPORT)) {
    const target = path.posix.normalize(path.posix.join(dir, match[1]!)).replace(/\.js$/, '.ts');
    found.push(target);
  }
  return found;
}

/** A service, a repository or query file, or a file of src/core. */
export function isKernelOrDomainFile(name: string): boolean {
  return name.startsWith('core/') || isQueryFile(name) || /(^|\/)([a-z-]+-)?service\.ts$/.test(name);
}

/** "file -> http/x.ts" for each import of src/http/ by a service, repository, query or core file. */
export function edgeImports(files: SourceFile[]): string[] {
  return files
    .filter((f) => isKernelOrDomainFile(f.name) && !f.name.startsWith('db/'))
    .flatMap((f) =>
      importsOf(f)
        .filter((target) => target.startsWith('http/'))
        .map((t) => `${f.name} -> ${t}`),
    );
}

/** "config.ts -> modules/x.ts" for each import of a feature (or of the edge) by the configuration. */
export function configImports(files: SourceFile[]): string[] {
  return files
    .filter((f) => f.name === 'config.ts')
    .flatMap((f) =>
      importsOf(f)
        .filter((target) => target.startsWith('modules/') || target.startsWith('http/'))
        .map((t) => `${f.name} -> ${t}`),
    );
}

/** The module a file belongs to (modules/<name>/…), or undefined outside src/modules/. */
export function moduleOf(name: string): string | undefined {
  return /^modules\/([^/]+)\//.exec(name)?.[1];
}

/**
 * "file -> target" for each import of another module's repository or query file by a module's
 * file (type-only imports included): another module's data comes through its service functions.
 */
export function crossModuleQueryImports(files: SourceFile[]): string[] {
  return files
    .filter((f) => moduleOf(f.name) !== undefined)
    .flatMap((f) =>
      importsOf(f)
        .filter((target) => {
          const owner = moduleOf(target);
          return owner !== undefined && owner !== moduleOf(f.name) && isQueryFile(target);
        })
        .map((t) => `${f.name} -> ${t}`),
    );
}

/**
 * "file -> target" for each import of a file of module `used` by a file of another module (type-only
 * imports included): a module that others build on imports nothing from them.
 */
export function importsOfModule(files: SourceFile[], used: string): string[] {
  return files
    .filter((f) => moduleOf(f.name) !== undefined && moduleOf(f.name) !== used)
    .flatMap((f) =>
      importsOf(f)
        .filter((target) => moduleOf(target) === used)
        .map((t) => `${f.name} -> ${t}`),
    );
}

/** Every import cycle between files, each as its files in order ("a.ts -> b.ts -> a.ts"). */
export function importCycles(files: SourceFile[]): string[] {
  const names = new Set(files.map((f) => f.name));
  const graph = new Map(files.map((f) => [f.name, importsOf(f).filter((t) => names.has(t))]));
  // Tarjan's strongly connected components: a component of two or more files is a cycle.
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const visit = (node: string) => {
    order.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!));
    }
    if (low.get(node) !== order.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfLoop = component.length === 1 && (graph.get(node) ?? []).includes(node);
    if (component.length > 1 || selfLoop) cycles.push(component.sort().join(' <-> '));
  };
  for (const name of [...graph.keys()].sort()) if (!order.has(name)) visit(name);
  return cycles.sort();
}

// ---- the module template ----

/** The modules under modules/ and their files (relative to the module's folder). */
function modulesOf(files: SourceFile[]): Map<string, SourceFile[]> {
  const modules = new Map<string, SourceFile[]>();
  for (const f of files) {
    const match = /^modules\/([a-z-]+)\/(.+)$/.exec(f.name);
    if (!match) continue;
    const list = modules.get(match[1]!) ?? [];
    list.push({ name: match[2]!, text: f.text });
    modules.set(match[1]!, list);
  }
  return modules;
}

/**
 * "module: what is missing" for each module lacking a file of the template where it has the
 * concern: routes → a routes file and a schemas file; SQL → repository.ts or *-query.ts, and tables.ts; members'
 * own resources (a route with auth 'user') → access.ts; catalogue messages → registered in a messages.ts only (a sub-feature's folder may have its own).
 */
export function templateGaps(files: SourceFile[]): string[] {
  const gaps: string[] = [];
  for (const [module, own] of modulesOf(files)) {
    const has = (pattern: RegExp) => own.some((f) => pattern.test(f.name));
    const routeFiles = own.filter((f) => /^([a-z-]+-)?routes\.ts$/.test(f.name));
    if (routeFiles.length > 0 && !has(/^([a-z-]+-)?schemas\.ts$/)) gaps.push(`${module}: routes without schemas.ts`);
    const withSql = own.filter((f) => QUERY_BUILDER.test(code(f.text)) || RAW_SQL.test(code(f.text)));
    if (withSql.length > 0 && !has(/^(repository|[a-z-]+-query)\.ts$/))
      gaps.push(`${module}: SQL without repository.ts`);
    if (withSql.length > 0 && !has(/^tables\.ts$/)) gaps.push(`${module}: SQL without tables.ts`);
    if (routeFiles.some((f) => /auth: 'user'/.test(f.text)) && !has(/^access\.ts$/))
      gaps.push(`${module}: members' routes without access.ts`);
    for (const f of own) {
      if (!/(^|\/)messages\.ts$/.test(f.name) && /\bregisterMessages\(/.test(code(f.text)))
        gaps.push(`${module}: catalogue messages registered in ${f.name}, not messages.ts`);
    }
  }
  return gaps.sort();
}

// ---- one service style ----

const CLASS = /^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:abstract[ \t]+)?class[ \t]+(\w+)([^{\n]*)\{/gm;

/**
 * "file: Class" for each class declared in a module, errors (a class extending an Error) apart.
 * Services are plain functions taking their dependencies first, so a class in a module is stateful
 * infrastructure (an index, a cache, a stream registry), and each one is named with its reason.
 */
export function moduleClasses(files: SourceFile[]): string[] {
  return files
    .filter((f) => f.name.startsWith('modules/'))
    .flatMap((f) =>
      [...code(f.text).matchAll(CLASS)]
        .filter((match) => !/\bextends[ \t]+[\w.]*Error\b/.test(match[2]!))
        .map((match) => `${f.name}: ${match[1]}`),
    )
    .sort();
}

// ---- size ----

export const MAX_LINES = 300;

export function longFiles(files: SourceFile[]): string[] {
  return files.filter((f) => f.text.split('\n').length - 1 > MAX_LINES).map((f) => f.name);
}
