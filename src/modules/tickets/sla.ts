// Service levels: how long a ticket may take to get its first staff reply and to be resolved, by
// priority, counted from its creation. Change the numbers here (or pass your own table).
import type { TicketPriority, TicketStatus } from './tables.js';

export interface SlaHours {
  resolution: Record<TicketPriority, number>;
  firstResponse: Record<TicketPriority, number>;
  /** An open ticket is "warning" once less than this share of its resolution window is left. */
  warningShare: number;
}

export const SLA_HOURS: SlaHours = {
  resolution: { high: 4, normal: 24, low: 72 },
  firstResponse: { high: 1, normal: 4, low: 12 },
  warningShare: 0.25,
};

const HOUR_MS = 3_600_000;

/** How hours are counted: wall-clock by default; calendar/clock.ts's SlaClock counts working time. */
export interface DeadlineClock {
  deadline(createdAt: string, hours: number): string;
}

const WALL_CLOCK: DeadlineClock = {
  deadline: (createdAt, h) => new Date(Date.parse(createdAt) + h * HOUR_MS).toISOString(),
};

export function slaDeadlineFor(
  priority: TicketPriority,
  createdAt: string,
  hours: SlaHours = SLA_HOURS,
  clock: DeadlineClock = WALL_CLOCK,
): string {
  return clock.deadline(createdAt, hours.resolution[priority]);
}

export function firstResponseDeadlineFor(
  priority: TicketPriority,
  createdAt: string,
  hours: SlaHours = SLA_HOURS,
  clock: DeadlineClock = WALL_CLOCK,
): string {
  return clock.deadline(createdAt, hours.firstResponse[priority]);
}

/** Both deadlines of a ticket of this priority created at createdAt (a new ticket, or a new priority). */
export function deadlinesFor(priority: TicketPriority, createdAt: string, clock: DeadlineClock = WALL_CLOCK) {
  return {
    sla_deadline: slaDeadlineFor(priority, createdAt, SLA_HOURS, clock),
    first_response_due_at: firstResponseDeadlineFor(priority, createdAt, SLA_HOURS, clock),
  };
}

export type SlaStatus = 'on_time' | 'warning' | 'overdue' | 'met' | 'missed';

export interface SlaFacts {
  status: TicketStatus;
  created_at: string;
  sla_deadline: string;
  resolved_at: string | null;
}

/**
 * Closed: met when resolved by the deadline, else missed. Not closed: overdue past the deadline,
 * warning when less than warningShare of the window is left, else on_time.
 */
export function slaStatusOf(ticket: SlaFacts, now: number = Date.now(), hours: SlaHours = SLA_HOURS): SlaStatus {
  const deadline = Date.parse(ticket.sla_deadline);
  if (ticket.status === 'closed' && ticket.resolved_at) {
    return Date.parse(ticket.resolved_at) <= deadline ? 'met' : 'missed';
  }
  if (now > deadline) return 'overdue';
  const window = deadline - Date.parse(ticket.created_at);
  return deadline - now < window * hours.warningShare ? 'warning' : 'on_time';
}

/**
 * The first moment (epoch ms) after `now` at which slaStatusOf gives another answer than it gives
 * at `now`, or Infinity when it never will (closed, or already overdue). A list answer built at
 * `now` is good until the earliest of these over its rows. Worked out with the same comparisons
 * slaStatusOf makes, so the two cannot disagree by a millisecond.
 */
export function slaStatusChangesAt(ticket: SlaFacts, now: number = Date.now(), hours: SlaHours = SLA_HOURS): number {
  const deadline = Date.parse(ticket.sla_deadline);
  if (ticket.status === 'closed' && ticket.resolved_at) return Number.POSITIVE_INFINITY;
  if (now > deadline) return Number.POSITIVE_INFINITY;
  // Warning while deadline - t < limit; overdue from deadline + 1.
  const limit = (deadline - Date.parse(ticket.created_at)) * hours.warningShare;
  if (deadline - now < limit) return deadline + 1;
  // On time now: warning from the first whole millisecond t with deadline - t <= ceil(limit) - 1.
  return Math.min(deadline - (Math.ceil(limit) - 1), deadline + 1);
}
