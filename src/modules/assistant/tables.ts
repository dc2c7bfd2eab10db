export interface AssistantTables {}
