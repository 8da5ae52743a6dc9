/*
 * ctor_hang.c — a test plugin whose library constructor never returns, so loading it hangs the process
 * that loads it. Built by the isolation tests into a temporary folder; never installed. The host must
 * give up on the worker after its startup timeout and kill it.
 */
#define NEVER_PLUGIN_ID "ctor_hang"
#define NEVER_PLUGIN_NAME "Constructor hang"
#define NEVER_PLUGIN_DESCRIPTION "Hangs while loading."
#include "never_plugin.h"

#include <unistd.h>

__attribute__((constructor)) static void hang_on_load(void) {
    for (;;) pause();
}
