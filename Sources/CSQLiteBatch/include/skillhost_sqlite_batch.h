/* A SQLite VFS that writes each WAL transaction with one pwrite instead of two per page. See
 * sqlite_batch_vfs.c and docs/history.md ("Cost"). */
#ifndef SKILLHOST_SQLITE_BATCH_H
#define SKILLHOST_SQLITE_BATCH_H

/* The name to pass to sqlite3_open_v2 once skillhost_sqlite_batch_register() returned 0. */
#define SKILLHOST_SQLITE_BATCH_VFS "skillhost-wal-batch"

/* Registers the VFS (not as the default) on top of SQLite's default VFS. Safe to call more than once and
 * from several threads. The first call, made before any other use of SQLite in the process, also turns
 * SQLite's memory statistics off (SQLITE_CONFIG_MEMSTATUS: a global mutex per allocation). Returns 0 (SQLITE_OK), or an SQLite error code when it could not be registered
 * (then open databases with the default VFS). */
int skillhost_sqlite_batch_register(void);

#endif
