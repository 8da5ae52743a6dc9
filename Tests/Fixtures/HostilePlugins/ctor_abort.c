/*
 * ctor_abort.c — a test plugin whose library constructor aborts, so merely loading it kills the process
 * that loads it. Built by the isolation tests into a temporary folder; never installed. The host must
 * survive: only the worker (or scanner) child dies.
 */
#define NEVER_PLUGIN_ID "ctor_abort"
#define NEVER_PLUGIN_NAME "Constructor abort"
#define NEVER_PLUGIN_DESCRIPTION "Aborts while loading."
#include "never_plugin.h"

#include <stdlib.h>

__attribute__((constructor)) static void explode_on_load(void) { abort(); }
