/* mcp_fixed_server.c — an MCP stdio server for scripts/bench-mcp.sh --gateway whose own time is next to
 * nothing, so what the gateway adds can be read apart from the server's: one tool `echo` (read-only), and
 * every tools/call answered with the same bytes at once. It answers initialize (2025-11-25), tools/list,
 * tools/call and ping; any other request gets -32601 (server/discover too: a client then initializes);
 * notifications are read and ignored. Each request's "id" is copied into its answer as it was written.
 * Build: cc -O2 -o mcp_fixed_server mcp_fixed_server.c */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char input[1 << 20];
static char output[1 << 20];

/* The raw JSON of the value of `"key":` in `line` (a number or a string), copied into `out`; 0 when absent. */
static size_t raw_value(const char *line, const char *key, char *out, size_t size) {
    const char *at = strstr(line, key);
    if (!at) return 0;
    at += strlen(key);
    while (*at == ' ') at++;
    size_t n = 0;
    if (*at == '"') {
        out[n++] = *at++;
        while (*at && *at != '"' && n + 2 < size) {
            if (*at == '\\' && at[1]) out[n++] = *at++;
            out[n++] = *at++;
        }
        if (*at == '"') out[n++] = '"';
    } else {
        while (*at && *at != ',' && *at != '}' && *at != ' ' && n + 1 < size) out[n++] = *at++;
    }
    out[n] = 0;
    return n;
}

static const char *result_of(const char *method) {
    if (strcmp(method, "\"tools/call\"") == 0)
        return "{\"content\":[{\"type\":\"text\",\"text\":\"hello\"}],\"isError\":false}";
    if (strcmp(method, "\"tools/list\"") == 0)
        return "{\"tools\":[{\"name\":\"echo\",\"description\":\"Answers hello.\",\"inputSchema\":{\"type\":\"object\","
               "\"properties\":{\"text\":{\"type\":\"string\"}}},\"annotations\":{\"readOnlyHint\":true}}]}";
    if (strcmp(method, "\"initialize\"") == 0)
        return "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"fixed\",\"version\":\"1\"}}";
    if (strcmp(method, "\"ping\"") == 0) return "{}";
    return NULL;
}

int main(void) {
    size_t filled = 0;
    for (;;) {
        ssize_t got = read(0, input + filled, sizeof input - 1 - filled);
        if (got <= 0) break;
        filled += (size_t)got;
        size_t start = 0, out = 0;
        for (size_t i = 0; i < filled; i++) {
            if (input[i] != '\n') continue;
            input[i] = 0;
            const char *line = input + start;
            start = i + 1;
            char id[256], method[256];
            if (!raw_value(line, "\"id\":", id, sizeof id) || !raw_value(line, "\"method\":", method, sizeof method)) continue;
            const char *result = result_of(method);
            int n = result
                ? snprintf(output + out, sizeof output - out, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n", id, result)
                : snprintf(output + out, sizeof output - out,
                      "{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32601,\"message\":\"no such method\"}}\n", id);
            if (n > 0 && (size_t)n < sizeof output - out) out += (size_t)n;
        }
        memmove(input, input + start, filled - start);
        filled -= start;
        for (size_t done = 0; done < out;) {
            ssize_t put = write(1, output + done, out - done);
            if (put <= 0) return 0;
            done += (size_t)put;
        }
    }
    return 0;
}
