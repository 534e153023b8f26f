// Ids of the service are UUIDs. One pattern for the CLI's checks, the webhook payload check and the
// emulator's routes.

export const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

const UUID = new RegExp(`^${UUID_PATTERN}$`);

export const isUuid = (value: string): boolean => UUID.test(value);

/**
 * The header the bundled emulator adds to every answer: which set of records it serves (new when it
 * starts without --state, and when it is reset). A batch ledger records it beside its ids, so a
 * rerun can tell that the emulator has forgotten them. The real service sends no such header.
 */
export const EMULATOR_RUN_HEADER = 'x-agentctl-emulator-run';
