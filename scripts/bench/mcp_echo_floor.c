/* mcp_echo_floor.c — the floor for scripts/bench-mcp.sh: a stdio "MCP server" that does no work at all.
 * It reads whatever input is there, answers every line that has an "id" with a fixed tools/call result
 * (the id copied through), and writes all answers of one read in one write(2). What the pipelined
 * client reaches against it is what the pipes and the client itself allow on this machine.
 * Build: cc -O2 -o mcp_echo_floor mcp_echo_floor.c */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char input[1 << 20];
static char output[1 << 22];

int main(void) {
    static const char head[] = "{\"jsonrpc\":\"2.0\",\"id\":";
    static const char tail[] = ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"text\\\":\\\"hello\\\"}\"}],"
                               "\"structuredContent\":{\"text\":\"hello\"},\"isError\":false,"
                               "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                               "\"serverInfo\":{\"name\":\"floor\",\"version\":\"1\"}}}\n";
    size_t filled = 0;
    for (;;) {
        ssize_t got = read(0, input + filled, sizeof input - filled);
        if (got <= 0) break;
        filled += (size_t)got;
        size_t start = 0, out = 0;
        for (size_t i = 0; i < filled; i++) {
            if (input[i] != '\n') continue;
            input[i] = 0;
            const char *id = strstr(input + start, "\"id\":");
            if (id) {
                id += 5;
                const char *end = id;
                while (*end && *end != ',' && *end != '}') end++;
                if (out + sizeof head + (size_t)(end - id) + sizeof tail > sizeof output) {
                    if (write(1, output, out) < 0) return 1;
                    out = 0;
                }
                memcpy(output + out, head, sizeof head - 1), out += sizeof head - 1;
                memcpy(output + out, id, (size_t)(end - id)), out += (size_t)(end - id);
                memcpy(output + out, tail, sizeof tail - 1), out += sizeof tail - 1;
            }
            start = i + 1;
        }
        if (out && write(1, output, out) < 0) return 1;
        memmove(input, input + start, filled - start);
        filled -= start;
    }
    return 0;
}
