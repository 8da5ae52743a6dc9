/* mcp_relay_floor.c — the floor for scripts/bench-mcp.sh --gateway: a "gateway" that does no work at all.
 * It starts the command it is given with pipes for its stdin and stdout, then copies whatever arrives on
 * its own stdin to the command's, and whatever the command writes to its own stdout, from one poll(2) loop:
 * no parsing, no checks, no record, no sandbox. Called through it, a server is one process hop further
 * away; what that hop adds (two more wake-ups and pipe round trips per call) is what any gateway adds at
 * the least on this machine.
 * Build: cc -O2 -o mcp_relay_floor mcp_relay_floor.c
 * Usage: mcp_relay_floor COMMAND [ARGS...] */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static char buffer[1 << 16];

/* Copies what `from` has to `to`; 0 when `from` ended or `to` failed. */
static int copy(int from, int to) {
    ssize_t got = read(from, buffer, sizeof buffer);
    if (got <= 0) return 0;
    for (ssize_t done = 0; done < got;) {
        ssize_t put = write(to, buffer + done, (size_t)(got - done));
        if (put <= 0) return 0;
        done += put;
    }
    return 1;
}

int main(int argc, char **argv) {
    int in[2], out[2];
    if (argc < 2 || pipe(in) != 0 || pipe(out) != 0) {
        fprintf(stderr, "usage: mcp_relay_floor COMMAND [ARGS...]\n");
        return 2;
    }
    pid_t child = fork();
    if (child == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]); close(in[1]); close(out[0]); close(out[1]);
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    struct pollfd watched[2] = {{.fd = 0, .events = POLLIN}, {.fd = out[0], .events = POLLIN}};
    for (;;) {
        if (poll(watched, 2, -1) < 0) continue;
        if (watched[0].revents && !copy(0, in[1])) break;
        if (watched[1].revents && !copy(out[0], 1)) break;
    }
    close(in[1]);
    kill(child, SIGTERM);
    waitpid(child, NULL, 0);
    return 0;
}
