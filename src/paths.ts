import { fileURLToPath } from 'node:url';

/** The project folder: this file lives one level below it, in src/ or, built (bundled into a file of), dist/. */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Data shipped with the service (geographic CSVs, the assistant's knowledge base). */
export const assetsDir = fileURLToPath(new URL('../assets/', import.meta.url));

/** The migrations: src/db/migrations, or built, dist/db/migrations (each one its own file in both). */
export const migrationsDir = fileURLToPath(new URL('./db/migrations/', import.meta.url));

/** The folder of the code itself: src/ or, built, dist/ (for files loaded by path, such as a worker's entry). */
export const codeDir = new URL('./', import.meta.url);

/**
 * How to start a worker thread on a module under the code folder, named without its extension
 * (`db/checkpoint-worker`). Built, the module is its own entry point of the bundle
 * (scripts/build-server.mjs); from source (tsx, the tests) it is the .ts file, which a worker can
 * only load once tsx's loader is registered in it: a two-line bootstrap, evaluated.
 */
export function workerEntry(module: string): { entry: string | URL; eval: boolean } {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(`./${module}.${fromSource ? 'ts' : 'js'}`, codeDir);
  if (!fromSource) return { entry: url, eval: false };
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return { entry: bootstrap, eval: true };
}
