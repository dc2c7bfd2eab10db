import { fileURLToPath } from 'node:url';

/** The project folder: this file lives one level below it, in src/ or, built, in dist/. */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Data shipped with the service (geographic CSVs, the assistant's knowledge base). */
export const assetsDir = fileURLToPath(new URL('../assets/', import.meta.url));
