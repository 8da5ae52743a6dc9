/*
 * skillhost-wal-batch: a SQLite VFS shim over the default (unix) VFS that gathers the writes of a WAL
 * transaction and hands them to the kernel in one pwrite.
 *
 * SQLite writes each WAL frame with two pwrite calls (its 24-byte header, then the page), all frames of a
 * transaction one after the other, and publishes the transaction in the shared wal-index only after the
 * last one. Every other file (the database, journals) opens straight on the default VFS, untouched.
 *
 * For a WAL file, a write that continues the bytes gathered so far is appended to a buffer; any other
 * operation on the file (a read, a write elsewhere, sync, truncate, size, lock, file control, close)
 * first writes the buffer out. The commit frame is recognised by its header (a non-zero "database size
 * after commit" field, bytes 4-7): the write of its page writes the whole buffer out and returns that
 * write's result. So when COMMIT returns, every frame of the transaction is in the kernel exactly as
 * without the shim (same bytes, same offsets), before SQLite makes it visible to other connections; a
 * failed write fails the commit. Frames SQLite writes before a commit (a spilled cache) stay in the
 * buffer until then or until SQLite reads them back; no other connection looks past the last commit.
 * A process killed with frames in the buffer loses an uncommitted transaction: as if killed mid-write.
 */
#include "skillhost_sqlite_batch.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* Bytes gathered before they are written out even without a commit. The unix VFS writes at most
 * 0x1ffff bytes per call (it masks the length to 17 bits and reports a shorter write as SQLITE_FULL), so
 * the buffer stays below 128 KiB: 29 frames of 4 KiB pages. */
#define BATCH_CAPACITY (120 * 1024)
/* Size of a WAL frame header (SQLite's WAL_FRAME_HDRSIZE). */
#define FRAME_HEADER_SIZE 24

typedef struct BatchFile {
    sqlite3_file base;       /* pMethods = batchMethods */
    sqlite3_file *real;      /* the default VFS's file, stored right after this struct */
    unsigned char *buffer;   /* BATCH_CAPACITY bytes, allocated on the first write */
    int used;                /* bytes gathered */
    sqlite3_int64 start;     /* file offset of buffer[0] */
    int commitFrame;         /* the last write was the header of a commit frame */
} BatchFile;

static sqlite3_vfs *realVfs;
static sqlite3_vfs batchVfs;
static int registerResult = SQLITE_ERROR;
static pthread_once_t registerOnce = PTHREAD_ONCE_INIT;

/* Writes the gathered bytes out. The buffer is empty afterwards, whether or not the write worked. */
static int flush(BatchFile *file) {
    file->commitFrame = 0;
    if (file->used == 0) return SQLITE_OK;
    int amount = file->used;
    file->used = 0;
    return file->real->pMethods->xWrite(file->real, file->buffer, amount, file->start);
}

static int batchClose(sqlite3_file *handle) {
    BatchFile *file = (BatchFile *)handle;
    int flushed = flush(file);
    int closed = file->real->pMethods->xClose(file->real);
    free(file->buffer);
    file->buffer = NULL;
    return flushed != SQLITE_OK ? flushed : closed;
}

static int batchRead(sqlite3_file *handle, void *data, int amount, sqlite3_int64 offset) {
    BatchFile *file = (BatchFile *)handle;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xRead(file->real, data, amount, offset);
}

static int batchWrite(sqlite3_file *handle, const void *data, int amount, sqlite3_int64 offset) {
    BatchFile *file = (BatchFile *)handle;
    if (file->used > 0 && offset != file->start + file->used) {
        int rc = flush(file);
        if (rc != SQLITE_OK) return rc;
    }
    if (file->buffer == NULL) {
        file->buffer = malloc(BATCH_CAPACITY);
        if (file->buffer == NULL) return file->real->pMethods->xWrite(file->real, data, amount, offset);
    }
    if (amount > BATCH_CAPACITY - file->used) {
        int rc = flush(file);
        if (rc != SQLITE_OK) return rc;
        if (amount > BATCH_CAPACITY) return file->real->pMethods->xWrite(file->real, data, amount, offset);
    }
    int endsCommit = file->commitFrame && amount != FRAME_HEADER_SIZE;
    if (file->used == 0) file->start = offset;
    memcpy(file->buffer + file->used, data, (size_t)amount);
    file->used += amount;
    file->commitFrame = 0;
    if (endsCommit) return flush(file);
    if (amount == FRAME_HEADER_SIZE) {
        const unsigned char *header = data;
        file->commitFrame = (header[4] | header[5] | header[6] | header[7]) != 0;
    }
    return SQLITE_OK;
}

static int batchTruncate(sqlite3_file *handle, sqlite3_int64 size) {
    BatchFile *file = (BatchFile *)handle;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xTruncate(file->real, size);
}

static int batchSync(sqlite3_file *handle, int flags) {
    BatchFile *file = (BatchFile *)handle;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xSync(file->real, flags);
}

static int batchFileSize(sqlite3_file *handle, sqlite3_int64 *size) {
    BatchFile *file = (BatchFile *)handle;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xFileSize(file->real, size);
}

static int batchLock(sqlite3_file *handle, int level) {
    BatchFile *file = (BatchFile *)handle;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xLock(file->real, level);
}

static int batchUnlock(sqlite3_file *handle, int level) {
    BatchFile *file = (BatchFile *)handle;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xUnlock(file->real, level);
}

static int batchCheckReservedLock(sqlite3_file *handle, int *reserved) {
    BatchFile *file = (BatchFile *)handle;
    return file->real->pMethods->xCheckReservedLock(file->real, reserved);
}

static int batchFileControl(sqlite3_file *handle, int op, void *argument) {
    BatchFile *file = (BatchFile *)handle;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static int batchSectorSize(sqlite3_file *handle) {
    BatchFile *file = (BatchFile *)handle;
    return file->real->pMethods->xSectorSize(file->real);
}

static int batchDeviceCharacteristics(sqlite3_file *handle) {
    BatchFile *file = (BatchFile *)handle;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int batchShmMap(sqlite3_file *handle, int region, int size, int extend, void volatile **mapped) {
    BatchFile *file = (BatchFile *)handle;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, mapped);
}

static int batchShmLock(sqlite3_file *handle, int offset, int count, int flags) {
    BatchFile *file = (BatchFile *)handle;
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void batchShmBarrier(sqlite3_file *handle) {
    BatchFile *file = (BatchFile *)handle;
    file->real->pMethods->xShmBarrier(file->real);
}

static int batchShmUnmap(sqlite3_file *handle, int deleteFlag) {
    BatchFile *file = (BatchFile *)handle;
    return file->real->pMethods->xShmUnmap(file->real, deleteFlag);
}

static int batchFetch(sqlite3_file *handle, sqlite3_int64 offset, int amount, void **pointer) {
    BatchFile *file = (BatchFile *)handle;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xFetch(file->real, offset, amount, pointer);
}

static int batchUnfetch(sqlite3_file *handle, sqlite3_int64 offset, void *pointer) {
    BatchFile *file = (BatchFile *)handle;
    return file->real->pMethods->xUnfetch(file->real, offset, pointer);
}

static const sqlite3_io_methods batchMethods = {
    3, batchClose, batchRead, batchWrite, batchTruncate, batchSync, batchFileSize, batchLock, batchUnlock,
    batchCheckReservedLock, batchFileControl, batchSectorSize, batchDeviceCharacteristics, batchShmMap,
    batchShmLock, batchShmBarrier, batchShmUnmap, batchFetch, batchUnfetch,
};

static int batchOpen(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *handle, int flags, int *outFlags) {
    (void)vfs;
    /* Everything but a WAL file is the default VFS's own file, in place. */
    if ((flags & SQLITE_OPEN_WAL) == 0) return realVfs->xOpen(realVfs, name, handle, flags, outFlags);
    BatchFile *file = (BatchFile *)handle;
    memset(file, 0, sizeof(*file));
    file->real = (sqlite3_file *)&file[1];
    int rc = realVfs->xOpen(realVfs, name, file->real, flags, outFlags);
    /* SQLite closes a file whose pMethods is set, even when its open failed. */
    file->base.pMethods = file->real->pMethods != NULL ? &batchMethods : NULL;
    return rc;
}

static void registerVfs(void) {
    /* Before SQLite initializes (sqlite3_vfs_find does): no memory statistics. With them (Debian's
     * default) every allocation SQLite makes takes a process-wide mutex and updates counters nobody here
     * reads: 6 % of SQLite's instructions per history transaction (callgrind, scripts/bench/history_floor.c).
     * Refused (SQLITE_MISUSE, harmless) when something in the process already used SQLite. */
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    realVfs = sqlite3_vfs_find(NULL);
    if (realVfs == NULL || realVfs->iVersion < 1) return;
    batchVfs = *realVfs;
    batchVfs.pNext = NULL;
    batchVfs.zName = SKILLHOST_SQLITE_BATCH_VFS;
    batchVfs.szOsFile = (int)sizeof(BatchFile) + realVfs->szOsFile;
    batchVfs.xOpen = batchOpen;
    registerResult = sqlite3_vfs_register(&batchVfs, 0);
}

int skillhost_sqlite_batch_register(void) {
    pthread_once(&registerOnce, registerVfs);
    return registerResult;
}
