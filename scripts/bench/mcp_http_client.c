/* A small concurrent HTTP/1.1 load client for scripts/bench-mcp.sh --http: CONNECTIONS keep-alive connections
 * to 127.0.0.1:PORT, each sending one `tools/call` POST of the 2026-07-28 revision at a time (bench_echo
 * {"text":"hello"}) and reading the whole answer (Content-Length or chunked) before the next, until CALLS
 * answers came. The same bytes go to skillhost and to the Python server; written in C so the client is not
 * the bottleneck. Prints one JSON line: {"calls","seconds","calls_per_second","errors"}.
 *
 * usage: mcp_http_client PORT CALLS CONNECTIONS TOKEN
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNECTIONS 256
#define BUFFER (1 << 16)

struct connection {
    int fd;
    char buffer[BUFFER];
    size_t used;
    int waiting;
};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int connect_to(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        perror("connect");
        exit(1);
    }
    int yes = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    return fd;
}

/* Length of one complete response at the start of buf (0: incomplete); *status gets its status code. */
static size_t complete(const char *buf, size_t used, int *status) {
    const char *end = memmem(buf, used, "\r\n\r\n", 4);
    if (!end) return 0;
    size_t head = (size_t)(end - buf) + 4;
    *status = atoi(buf + 9);
    const char *length = memmem(buf, head, "Content-Length:", 15);
    if (!length) length = memmem(buf, head, "content-length:", 15);
    if (length) {
        size_t body = strtoul(length + 15, NULL, 10);
        return used >= head + body ? head + body : 0;
    }
    /* chunked: walk the chunks */
    size_t at = head;
    for (;;) {
        const char *line = memmem(buf + at, used - at, "\r\n", 2);
        if (!line) return 0;
        size_t size = strtoul(buf + at, NULL, 16);
        at = (size_t)(line - buf) + 2;
        if (size == 0) return used >= at + 2 ? at + 2 : 0;
        if (used < at + size + 2) return 0;
        at += size + 2;
    }
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: mcp_http_client PORT CALLS CONNECTIONS TOKEN\n");
        return 2;
    }
    int port = atoi(argv[1]);
    long calls = atol(argv[2]);
    int count = atoi(argv[3]);
    if (count < 1 || count > MAX_CONNECTIONS) count = 8;
    const char *body =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"bench_echo\",\"arguments\":{\"text\":\"hello\"},"
        "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{},"
        "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}}";
    char request[2048];
    int length = snprintf(request, sizeof request,
                          "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                          "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                          "Mcp-Method: tools/call\r\nMcp-Name: bench_echo\r\nAuthorization: Bearer %s\r\n"
                          "Content-Length: %zu\r\n\r\n%s",
                          port, argv[4], strlen(body), body);
    static struct connection connections[MAX_CONNECTIONS];
    struct pollfd polls[MAX_CONNECTIONS];
    long sent = 0, answered = 0, errors = 0;
    double started = now();
    for (int i = 0; i < count; i++) {
        connections[i].fd = connect_to(port);
        polls[i].fd = connections[i].fd;
        polls[i].events = POLLIN;
    }
    for (int i = 0; i < count && sent < calls; i++) {
        if (write(connections[i].fd, request, (size_t)length) != length) { perror("write"); return 1; }
        connections[i].waiting = 1;
        sent++;
    }
    while (answered < calls) {
        if (poll(polls, (nfds_t)count, 30000) <= 0) { fprintf(stderr, "no answer within 30 s\n"); return 1; }
        for (int i = 0; i < count; i++) {
            if (!(polls[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            struct connection *c = &connections[i];
            ssize_t got = read(c->fd, c->buffer + c->used, BUFFER - c->used);
            if (got <= 0) { fprintf(stderr, "the server closed a connection after %ld answers\n", answered); return 1; }
            c->used += (size_t)got;
            int status = 0;
            size_t done;
            while ((done = complete(c->buffer, c->used, &status)) > 0) {
                if (status != 200 || !memmem(c->buffer, done, "\"isError\":false", 15)) errors++;
                memmove(c->buffer, c->buffer + done, c->used - done);
                c->used -= done;
                answered++;
                c->waiting = 0;
                if (sent < calls) {
                    if (write(c->fd, request, (size_t)length) != length) { perror("write"); return 1; }
                    c->waiting = 1;
                    sent++;
                }
            }
        }
    }
    double seconds = now() - started;
    printf("{\"calls\": %ld, \"seconds\": %.3f, \"calls_per_second\": %.0f, \"errors\": %ld}\n", answered, seconds, answered / seconds, errors);
    for (int i = 0; i < count; i++) close(connections[i].fd);
    return errors ? 1 : 0;
}
