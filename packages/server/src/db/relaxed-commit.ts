import { sql } from 'kysely';

/**
 * PostgreSQL: a condition, true, that makes the statement's own transaction commit without waiting
 * for its WAL record to reach the disk (`synchronous_commit` off until that transaction ends). The
 * write then has the guarantee every write has on SQLite (WAL with `synchronous = NORMAL`): it
 * survives a crash of the platform, and only a crash of the database or the machine in the
 * following fraction of a second (three `wal_writer_delay`s at most) can take it back. For writes
 * whose loss such a crash can afford: a page of answers (the page before stays), a webhook's claim
 * or outcome (the message is sent again, as at-least-once delivery allows). The condition mentions
 * no column, so PostgreSQL keeps it with the row's conditions: it runs whenever a row is written.
 * The next ordinary commit flushes it with its own.
 */
export const relaxedCommit = sql<boolean>`set_config('synchronous_commit', 'off', true) = 'off'`;
