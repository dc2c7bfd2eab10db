import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Dialect } from '../db/index.js';
import type { Database } from '../db/schema.js';

/** A wrong or missing argument: printed as one line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The command could not do its work (no such user, unreadable file): one line, exit code 1. */
export class CommandFailed extends Error {
  override name = 'CommandFailed';
}

export interface CliContext {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  /** Standard output: results (JSON, the token). */
  out: (line: string) => void;
  /** Standard error: progress and notes, so standard output stays machine-readable. */
  progress: (line: string) => void;
}

export interface CliOption {
  type: 'string' | 'boolean';
  description: string;
}

export interface CliCommand {
  name: string;
  summary: string;
  /** e.g. "--email E --first-name F --last-name L [--admin]" */
  usage: string;
  options: Record<string, CliOption>;
  /** The option a single word after the command fills (kb:import DIR), if the command takes one. */
  positional?: string;
  /** The command manages migrations itself; others get pending migrations applied first. */
  ownsMigrations?: boolean;
  run(values: Record<string, string | boolean | undefined>, context: CliContext): Promise<void>;
}

export function requireString(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

export function optionalPositiveInteger(
  values: Record<string, string | boolean | undefined>,
  name: string,
): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < 1) {
    throw new UsageError(`--${name} must be a positive whole number`);
  }
  return Number(value);
}
