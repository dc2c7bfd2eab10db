// The feature modules, in the order their routes are registered. Each owns a folder under
// modules/ with its routes (a Fastify plugin mounted under /api) and its operator commands.
import type { FastifyPluginAsync } from 'fastify';
import type { CliCommand } from '../cli/command.js';
import type { OpenApiTag } from '../http/openapi.js';
import { openApiTags as assistantTags } from './assistant/schemas.js';
import { openApiTags as geoTags } from './geo/schemas.js';
import { openApiTags as notificationTags } from './notifications/schemas.js';
import { openApiTags as ticketTags } from './tickets/schemas.js';
import { openApiTags as userTags } from './users/admin-schemas.js';
import { openApiTags as consoleTags } from './users/console/schemas.js';
import answerGapRoutes from './answer-gaps/routes.js';
import { openApiTags as answerGapTags } from './answer-gaps/schemas.js';
import { openApiTags as kbFileTags } from './kb-files/schemas.js';
import assistantRoutes from './assistant/routes.js';
import staffConsoleRoutes from './console/routes.js';
import { commands as assistantCommands } from './assistant/commands.js';
import geoRoutes from './geo/routes.js';
import kbRoutes from './kb/routes.js';
import { openApiTags as kbTags } from './kb/schemas.js';
import { commands as kbCommands } from './kb/commands.js';
import { commands as geoCommands } from './geo/commands.js';
import notificationRoutes from './notifications/routes.js';
import { commands as notificationCommands } from './notifications/commands.js';
import kbFileRoutes from './kb-files/routes.js';
import ticketRoutes from './tickets/routes.js';
import { commands as ticketCommands } from './tickets/commands.js';
import userAdminRoutes from './users/admin-routes.js';
import { commands as userCommands } from './users/commands.js';
import consoleAdminRoutes from './users/console/admin-routes.js';
import { commands as consoleCommands } from './users/console/commands.js';
import consoleRoutes from './users/console/routes.js';

export interface FeatureModule {
  name: string;
  routes?: FastifyPluginAsync;
  commands: CliCommand[];
  /** The tags its operations use, with their descriptions, declared in the OpenAPI document. */
  openApiTags: OpenApiTag[];
}

export const modules: FeatureModule[] = [
  { name: 'users', routes: userAdminRoutes, commands: userCommands, openApiTags: userTags },
  { name: 'console sign-in', routes: consoleRoutes, commands: consoleCommands, openApiTags: consoleTags },
  { name: 'console sessions', routes: consoleAdminRoutes, commands: [], openApiTags: [] },
  { name: 'geo', routes: geoRoutes, commands: geoCommands, openApiTags: geoTags },
  { name: 'tickets', routes: ticketRoutes, commands: ticketCommands, openApiTags: ticketTags },
  { name: 'staff console', routes: staffConsoleRoutes, commands: [], openApiTags: [] },
  { name: 'assistant', routes: assistantRoutes, commands: assistantCommands, openApiTags: assistantTags },
  { name: 'kb', routes: kbRoutes, commands: kbCommands, openApiTags: kbTags },
  { name: 'notifications', routes: notificationRoutes, commands: notificationCommands, openApiTags: notificationTags },
  { name: 'kb-files', routes: kbFileRoutes, commands: [], openApiTags: kbFileTags },
  { name: 'answer-gaps', routes: answerGapRoutes, commands: [], openApiTags: answerGapTags },
];
