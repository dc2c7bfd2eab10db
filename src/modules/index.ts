// The feature modules, in the order their routes are registered. Each owns a folder under
// modules/ with its routes (a Fastify plugin mounted under /api) and its operator commands.
import type { FastifyPluginAsync } from 'fastify';
import type { CliCommand } from '../cli/command.js';
import type { ReadinessCheck } from '../core/probes.js';
import assistantRoutes from './assistant/routes.js';
import { commands as assistantCommands } from './assistant/commands.js';
import geoRoutes from './geo/routes.js';
import { commands as geoCommands } from './geo/commands.js';
import { geoReadiness } from './geo/readiness.js';
import notificationRoutes from './notifications/routes.js';
import { commands as notificationCommands } from './notifications/commands.js';
import ticketRoutes from './tickets/routes.js';
import { commands as ticketCommands } from './tickets/commands.js';
import userAdminRoutes from './users/admin-routes.js';
import { commands as userCommands } from './users/commands.js';

export interface FeatureModule {
  name: string;
  routes?: FastifyPluginAsync;
  commands: CliCommand[];
  /** Its checks of GET /health/ready. */
  readiness?: ReadinessCheck[];
}

export const modules: FeatureModule[] = [
  { name: 'users', routes: userAdminRoutes, commands: userCommands },
  { name: 'geo', routes: geoRoutes, commands: geoCommands, readiness: [geoReadiness] },
  { name: 'tickets', routes: ticketRoutes, commands: ticketCommands },
  { name: 'assistant', routes: assistantRoutes, commands: assistantCommands },
  { name: 'notifications', routes: notificationRoutes, commands: notificationCommands },
];
