/**
 * The table settings every store is opened with (store.ts). LevelDB keeps each open table file memory-mapped, and the pages it reads
 * count in the process's RSS: with the defaults (1000 open files of 2 MB), a
 * replay held more of them than the store's own size. 74 open files is
 * LevelDB's minimum (64 tables), and 1 MB tables halve what each holds: with
 * the other changes of then, a replay's peak RSS fell to a third, and neither
 * setting changed the run's or the replay's time measurably.
 */
export const TABLE_OPTIONS = { maxOpenFiles: 74, maxFileSize: 2 ** 20 } as const;
