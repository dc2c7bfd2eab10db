// The database as Kysely sees it: each module declares its own tables in its tables.ts; the mail
// outbox and the answer versions, shared infrastructure, in mail/tables.ts and answer-versions.ts.
import type { MailTables } from '../mail/tables.js';
import type { AnswerVersionTables } from './answer-versions.js';
import type { AnswerGapTables } from '../modules/answer-gaps/tables.js';
import type { AssistantTables } from '../modules/assistant/tables.js';
import type { ConsoleTables } from '../modules/console/tables.js';
import type { GeoTables } from '../modules/geo/tables.js';
import type { KbTables } from '../modules/kb/tables.js';
import type { KbFileTables } from '../modules/kb-files/tables.js';
import type { NotificationTables } from '../modules/notifications/tables.js';
import type { TicketTables } from '../modules/tickets/tables.js';
import type { UserTables } from '../modules/users/tables.js';

export interface Database
  extends UserTables,
    GeoTables,
    TicketTables,
    AssistantTables,
    NotificationTables,
    MailTables,
    AnswerVersionTables,
    ConsoleTables,
    KbTables,
    KbFileTables,
    AnswerGapTables {}
