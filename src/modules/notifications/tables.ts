export interface NotificationTables {}
