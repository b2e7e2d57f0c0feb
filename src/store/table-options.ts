/**
 * The table settings every store is opened with (store.ts). LevelDB keeps each open table file memory-mapped, and the pages it reads
 * count in the process's RSS: with the defaults (1000 open files of 2 MB), a
 * replay of a 280 MB store held 323 MB of them. 74 open files is LevelDB's
 * minimum (64 tables), and 1 MB tables halve what each holds: the replay's
 * peak RSS went from 1,154 MB to 389 MB with the other changes, and neither
 * setting changed the run's or the replay's time measurably.
 */
export const TABLE_OPTIONS = { maxOpenFiles: 74, maxFileSize: 2 ** 20 } as const;
