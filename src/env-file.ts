// A .env file in the working directory (or the file ENV_FILE names) is read at start by the server
// and the CLI, with Node's own parser (process.loadEnvFile, Node 20.12+). A variable already set
// in the environment wins over the file, so a deployment's settings are never overridden by a
// file left behind.
import fs from 'node:fs';
import { ConfigError } from './config.js';

/** Loads the file if it exists; returns its path, or undefined when there is none. */
export function loadEnvFile(file = process.env.ENV_FILE || '.env'): string | undefined {
  if (!fs.existsSync(file)) {
    if (process.env.ENV_FILE) throw new ConfigError(`ENV_FILE names ${file}, which does not exist`);
    return undefined;
  }
  if (typeof process.loadEnvFile !== 'function')
    throw new ConfigError(
      `${file} can only be read by Node 20.12 or later (this is ${process.version}); set the variables in the environment instead`,
    );
  process.loadEnvFile(file);
  return file;
}
