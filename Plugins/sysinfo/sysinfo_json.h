/*
 * sysinfo_json.h — the little JSON the sysinfo plugin needs: a growable output buffer with string
 * escaping, error objects in the ABI's shape, and reading one string member of the arguments object.
 */
#ifndef SYSINFO_JSON_H
#define SYSINFO_JSON_H

#include <stddef.h>

/* A malloc'd, NUL-terminated output buffer. `failed` is set (and later appends ignored) when memory runs out. */
typedef struct sysinfo_buffer {
    char *bytes;
    size_t length;
    size_t capacity;
    int failed;
} sysinfo_buffer;

void sysinfo_append(sysinfo_buffer *buffer, const char *text);
void sysinfo_appendf(sysinfo_buffer *buffer, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends `text` as a JSON string literal (quotes, escapes; bytes >= 0x80 are copied as they are). */
void sysinfo_string(sysinfo_buffer *buffer, const char *text);

/* Replaces the buffer's content with {"message": message, "remedy": remedy?}. */
void sysinfo_error(sysinfo_buffer *buffer, const char *message, const char *remedy);
/* Replaces the buffer's content with {"message", "field", "remedy"?}. */
void sysinfo_error_field(sysinfo_buffer *buffer, const char *message, const char *field, const char *remedy);

enum {
    SYSINFO_MEMBER_FOUND = 0,
    SYSINFO_MEMBER_ABSENT = 1,
    SYSINFO_MEMBER_INVALID = 2 /* not an object, not a string, has escapes, or too long */
};

/* Finds the top-level member `key` of the JSON object in `json` (`length` bytes) and copies its string
 * value (without escapes, shorter than `capacity`) into `value`. The host has validated the arguments
 * against the schema, so anything fancier is reported as invalid rather than parsed. */
int sysinfo_json_string_member(const char *json, size_t length, const char *key, char *value, size_t capacity);

#endif /* SYSINFO_JSON_H */
