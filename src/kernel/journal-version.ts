/**
 * The journal version: bumped whenever the journal's call keys or records, or
 * a message shape that replay compares, change in a way that breaks resume or
 * replay of older runs. A run records it in its manifest (`journalVersion`);
 * what each version changed is in docs/concepts/journal.md ("Journal versions").
 * Versions 1 to 6 were declared as `PROTOCOL_VERSION` in src/kernel/protocol.ts,
 * and runs written before the rename store it as `protocolVersion` (read as
 * `journalVersion`: src/store/records.ts).
 */
export const JOURNAL_VERSION = 8;
