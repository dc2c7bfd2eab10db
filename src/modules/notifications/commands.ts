// Operator equivalents of the admin integration API: report a project status, a revision request
// or an investment status from the shell. Same rules and transaction as the HTTP API; the result
// is printed as one line of JSON.
import { CommandFailed, UsageError, requireString, type CliCommand, type CliContext } from '../../cli/command.js';
import { renderFieldErrors, ValidationError } from '../../core/errors.js';
import { INVESTMENT_STATUSES, PROJECT_STATUSES } from './events.js';
import * as integration from './integration.js';
import type { IntegrationDeps, Saved } from './integration.js';
import { MAX_ID } from '../../core/ids.js';

type Values = Record<string, string | boolean | undefined>;

function wholeNumber(values: Values, name: string, min: number, max: number): number {
  const raw = requireString(values, name);
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

function text(values: Values, name: string, maxLength: number, required: boolean): string | null {
  const value = values[name];
  if (value === undefined && !required) return null;
  const given = requireString(values, name);
  if (given.length > maxLength) throw new UsageError(`--${name} must be at most ${maxLength} characters`);
  return given;
}

function oneOf<T extends string>(values: Values, name: string, allowed: readonly T[]): T {
  const raw = requireString(values, name);
  if (!(allowed as readonly string[]).includes(raw))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return raw as T;
}

/** Runs the change; an unknown user or project becomes a one-line failure naming the field. */
async function report<T>(context: CliContext, change: (deps: IntegrationDeps) => Promise<Saved<T>>): Promise<void> {
  const deps: IntegrationDeps = { db: context.db, dialect: context.dialect, config: context.config };
  try {
    const saved = await change(deps);
    context.out(
      JSON.stringify({ created: saved.created, data: saved.record, notification_ids: saved.notification_ids }),
    );
  } catch (error) {
    if (error instanceof ValidationError) {
      throw new CommandFailed(Object.values(renderFieldErrors(error.errors, 'en')).flat().join(' '));
    }
    throw error;
  }
}

export const commands: CliCommand[] = [
  {
    name: 'event:project-status',
    summary: 'Create or update a project; a change into a notifying status notifies the owner.',
    usage: `--project ID --title T --owner-id U --status ${PROJECT_STATUSES.join('|')} [--comment C]`,
    options: {
      project: { type: 'string', description: 'the platform id of the project' },
      title: { type: 'string', description: 'project title (at most 255 characters)' },
      'owner-id': { type: 'string', description: 'id of the user who owns the project' },
      status: { type: 'string', description: `one of ${PROJECT_STATUSES.join(', ')} (draft notifies nobody)` },
      comment: { type: 'string', description: 'comment carried in the status notification' },
    },
    async run(values, context) {
      const id = wholeNumber(values, 'project', 1, MAX_ID);
      const input = {
        title: text(values, 'title', 255, true)!,
        owner_id: wholeNumber(values, 'owner-id', 1, MAX_ID),
        status: oneOf(values, 'status', PROJECT_STATUSES),
        comment: text(values, 'comment', 2000, false),
      };
      await report(context, (deps) => integration.saveProject(deps, id, input));
    },
  },
  {
    name: 'event:revision-request',
    summary: 'Ask the owner of a project for changes before approval (notifies the owner).',
    usage: '--project ID --notes N',
    options: {
      project: { type: 'string', description: 'the platform id of an existing project' },
      notes: { type: 'string', description: 'what should change (at most 5000 characters)' },
    },
    async run(values, context) {
      const id = wholeNumber(values, 'project', 1, MAX_ID);
      const notes = text(values, 'notes', 5000, true)!;
      await report(context, (deps) => integration.requestRevision(deps, id, notes));
    },
  },
  {
    name: 'event:investment-status',
    summary: 'Create or update an investment; a status change notifies the investor, a payment also the owner.',
    usage: `--investment ID --project ID --investor-id U --amount A --status ${INVESTMENT_STATUSES.join('|')} [--notes N]`,
    options: {
      investment: { type: 'string', description: 'the platform id of the investment' },
      project: { type: 'string', description: 'id of an existing project' },
      'investor-id': { type: 'string', description: 'id of the investing user' },
      amount: { type: 'string', description: `whole currency units, 0 to ${Number.MAX_SAFE_INTEGER}` },
      status: { type: 'string', description: `one of ${INVESTMENT_STATUSES.join(', ')} (pending notifies nobody)` },
      notes: { type: 'string', description: 'notes carried in the status notification' },
    },
    async run(values, context) {
      const id = wholeNumber(values, 'investment', 1, MAX_ID);
      const input = {
        project_id: wholeNumber(values, 'project', 1, MAX_ID),
        investor_id: wholeNumber(values, 'investor-id', 1, MAX_ID),
        amount: wholeNumber(values, 'amount', 0, Number.MAX_SAFE_INTEGER),
        status: oneOf(values, 'status', INVESTMENT_STATUSES),
        notes: text(values, 'notes', 2000, false),
      };
      await report(context, (deps) => integration.saveInvestment(deps, id, input));
    },
  },
];
