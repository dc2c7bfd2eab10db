export interface TicketTables {}
