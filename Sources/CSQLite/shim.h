/* SQLite 3 (Debian: libsqlite3-dev), used by SkillStore for history, traces and session context. */
#include <sqlite3.h>
