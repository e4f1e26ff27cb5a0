#include <sqlite3.h>

/// sqlite3_config is variadic, which Swift cannot call: the one setting epf
/// changes, SQLITE_CONFIG_MEMSTATUS off. With it on (the default), every
/// allocation of every connection takes one process-wide mutex to keep the
/// memory statistics, which readers on several threads then queue for.
/// Only before sqlite3_initialize (the first open); SQLITE_MISUSE after.
static inline int epf_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
