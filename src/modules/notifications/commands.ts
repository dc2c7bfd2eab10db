import type { CliCommand } from '../../cli/command.js';

export const commands: CliCommand[] = [];
