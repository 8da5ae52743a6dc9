/*
 * attack_attempts.h — the attacker's suite (issue #34): every way out of a worker's sandbox we know of, each a
 * function that tries it for real and says whether it got through. Linked into the C attack plugin
 * (attack_plugin.c) and the Swift one (Tests/Fixtures/Attack/Swift), so both kinds of plugin make the same
 * attempts from inside their worker.
 *
 * An attempt never harms anything but what the test set up for it: the "victim" process and files the test
 * made. Attempts on the host and on sibling workers only probe (signal 0, reading, setting a value to what it
 * already is), so a sandbox that fails shows up as an escape without breaking the test run.
 */
#ifndef ATTACK_ATTEMPTS_H
#define ATTACK_ATTEMPTS_H

#include <stddef.h>
#include <sys/types.h>

/** What the test tells the attacker about its world (all optional; 0 or NULL when not given). */
struct attack_args {
    const char *home;          /* the user's home: HOME/.ssh/id_ed25519 holds a secret */
    const char *other_data;    /* a file in another plugin's data folder */
    const char *tmp_file;      /* a file the test put in /tmp */
    const char *data_dir;      /* the plugin's own data folder (from the call context) */
    int port;                  /* a TCP listener on 127.0.0.1 */
    int udp_port;              /* a UDP socket on 127.0.0.1 */
    const char *unix_path;     /* a listening pathname UNIX socket */
    const char *abstract_name; /* a listening abstract UNIX socket (without the leading NUL) */
    const char *secret;        /* a secret value of the host's environment, written backwards */
    pid_t victim;              /* a process of the same user the attacker may really try to harm */
    pid_t targets[16];         /* processes to probe: the host, sibling workers, the test */
    int target_count;
    const char *inject;        /* what TIOCSTI pushes into a terminal */
    long bound;                /* the most a resource attempt may get (processes, bytes) before it is an escape */
};

/** How an attempt went. */
struct attack_outcome {
    int escaped;       /* 1: it got through */
    int code;          /* the errno that stopped it (0 when it got through or nothing was tried) */
    char detail[400];  /* what happened, one line */
};

typedef void (*attack_function)(const struct attack_args *, struct attack_outcome *);

/** One attempt: its name, the class of the threat model it belongs to, and whether `attack.all` runs it. */
struct attack_attempt {
    const char *name;
    const char *threat;
    attack_function run;
    int alone; /* 1: resource attempts, run one by one (`attack.run`), never in `attack.all` */
};

extern const struct attack_attempt attack_attempts[];
extern const size_t attack_attempt_count;

/** The attempt at `index` (below attack_attempt_count), or NULL. */
const struct attack_attempt *attack_at(size_t index);

/** The attempt named `name`, or NULL. */
const struct attack_attempt *attack_find(const char *name);

#endif
