import { fileURLToPath } from 'node:url';

/** The project folder: this file lives one level below it, in src/ or, built (bundled into a file of), dist/. */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Data shipped with the service (geographic CSVs, the assistant's knowledge base). */
export const assetsDir = fileURLToPath(new URL('../assets/', import.meta.url));

/** The migrations: src/db/migrations, or built, dist/db/migrations (each one its own file in both). */
export const migrationsDir = fileURLToPath(new URL('./db/migrations/', import.meta.url));
