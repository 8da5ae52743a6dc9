/* sysinfo_json.c — see sysinfo_json.h. */
#include "sysinfo_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(sysinfo_buffer *buffer, size_t extra) {
    size_t needed;
    char *grown;
    if (buffer->failed) return 0;
    needed = buffer->length + extra + 1;
    if (needed <= buffer->capacity) return 1;
    if (needed < 256) needed = 256;
    if (needed < buffer->capacity * 2) needed = buffer->capacity * 2;
    grown = realloc(buffer->bytes, needed);
    if (grown == NULL) {
        buffer->failed = 1;
        return 0;
    }
    buffer->bytes = grown;
    buffer->capacity = needed;
    return 1;
}

void sysinfo_append(sysinfo_buffer *buffer, const char *text) {
    size_t length = strlen(text);
    if (!reserve(buffer, length)) return;
    memcpy(buffer->bytes + buffer->length, text, length + 1);
    buffer->length += length;
}

void sysinfo_appendf(sysinfo_buffer *buffer, const char *format, ...) {
    va_list arguments;
    int length;
    va_start(arguments, format);
    length = vsnprintf(NULL, 0, format, arguments);
    va_end(arguments);
    if (length < 0 || !reserve(buffer, (size_t)length)) return;
    va_start(arguments, format);
    vsnprintf(buffer->bytes + buffer->length, (size_t)length + 1, format, arguments);
    va_end(arguments);
    buffer->length += (size_t)length;
}

void sysinfo_string(sysinfo_buffer *buffer, const char *text) {
    const unsigned char *cursor;
    sysinfo_append(buffer, "\"");
    for (cursor = (const unsigned char *)text; *cursor != '\0'; cursor++) {
        char escaped[8];
        switch (*cursor) {
        case '"': sysinfo_append(buffer, "\\\""); break;
        case '\\': sysinfo_append(buffer, "\\\\"); break;
        case '\n': sysinfo_append(buffer, "\\n"); break;
        case '\t': sysinfo_append(buffer, "\\t"); break;
        default:
            if (*cursor < 0x20) {
                snprintf(escaped, sizeof escaped, "\\u%04x", *cursor);
            } else {
                escaped[0] = (char)*cursor;
                escaped[1] = '\0';
            }
            sysinfo_append(buffer, escaped);
        }
    }
    sysinfo_append(buffer, "\"");
}

void sysinfo_error_field(sysinfo_buffer *buffer, const char *message, const char *field, const char *remedy) {
    buffer->length = 0;
    if (buffer->bytes != NULL) buffer->bytes[0] = '\0';
    sysinfo_append(buffer, "{\"message\":");
    sysinfo_string(buffer, message);
    if (field != NULL) {
        sysinfo_append(buffer, ",\"field\":");
        sysinfo_string(buffer, field);
    }
    if (remedy != NULL) {
        sysinfo_append(buffer, ",\"remedy\":");
        sysinfo_string(buffer, remedy);
    }
    sysinfo_append(buffer, "}");
}

void sysinfo_error(sysinfo_buffer *buffer, const char *message, const char *remedy) {
    sysinfo_error_field(buffer, message, NULL, remedy);
}

static size_t skip_space(const char *json, size_t length, size_t at) {
    while (at < length && (json[at] == ' ' || json[at] == '\t' || json[at] == '\n' || json[at] == '\r')) at++;
    return at;
}

/* Reads a string without escapes starting at the opening quote; returns the index after the closing
 * quote, or 0 when it is not such a string. */
static size_t read_plain_string(const char *json, size_t length, size_t at, size_t *start, size_t *count) {
    size_t end;
    if (at >= length || json[at] != '"') return 0;
    for (end = at + 1; end < length && json[end] != '"'; end++) {
        if (json[end] == '\\' || (unsigned char)json[end] < 0x20) return 0;
    }
    if (end >= length) return 0;
    *start = at + 1;
    *count = end - at - 1;
    return end + 1;
}

int sysinfo_json_string_member(const char *json, size_t length, const char *key, char *value, size_t capacity) {
    size_t at, key_length = strlen(key);
    if (json == NULL || length == 0) return SYSINFO_MEMBER_ABSENT;
    at = skip_space(json, length, 0);
    if (at >= length || json[at] != '{') return SYSINFO_MEMBER_INVALID;
    at = skip_space(json, length, at + 1);
    if (at < length && json[at] == '}') return SYSINFO_MEMBER_ABSENT;
    while (at < length) {
        size_t name_start, name_count, value_start, value_count, next;
        next = read_plain_string(json, length, at, &name_start, &name_count);
        if (next == 0) return SYSINFO_MEMBER_INVALID;
        at = skip_space(json, length, next);
        if (at >= length || json[at] != ':') return SYSINFO_MEMBER_INVALID;
        at = skip_space(json, length, at + 1);
        next = read_plain_string(json, length, at, &value_start, &value_count);
        /* Every member of this plugin's parameters is a short string: anything else is invalid. */
        if (next == 0) return SYSINFO_MEMBER_INVALID;
        if (name_count == key_length && memcmp(json + name_start, key, key_length) == 0) {
            if (value_count + 1 > capacity) return SYSINFO_MEMBER_INVALID;
            memcpy(value, json + value_start, value_count);
            value[value_count] = '\0';
            return SYSINFO_MEMBER_FOUND;
        }
        at = skip_space(json, length, next);
        if (at < length && json[at] == ',') {
            at = skip_space(json, length, at + 1);
        } else if (at < length && json[at] == '}') {
            return SYSINFO_MEMBER_ABSENT;
        } else {
            return SYSINFO_MEMBER_INVALID;
        }
    }
    return SYSINFO_MEMBER_INVALID;
}
