/*
 * skill_json.h — reading a skill's arguments and writing its result, for plugins written in C.
 *
 * Header-only, C99 (also compiles as C++), no allocation except the result buffer (malloc/realloc/free),
 * no global state: every function is safe to call from any thread. Include it after skill_abi.h.
 *
 * READING. The host validates arguments against the skill's schema before `invoke`, but a plugin must not
 * trust that: every getter first checks that the whole argument text is well-formed JSON (depth at most
 * SKILL_JSON_MAX_DEPTH), then follows a JSON Pointer (RFC 6901: "/unit", "/range/start", "/items/0";
 * "" is the whole document) and converts the value it finds:
 *
 *     char unit[16];
 *     long long count;
 *     switch (skill_json_get_string(arguments, arguments_length, "/unit", unit, sizeof unit, NULL)) {
 *     case SKILL_JSON_OK: break;
 *     case SKILL_JSON_ABSENT: strcpy(unit, "MiB"); break;   (a default for an optional member)
 *     default: ... invalid arguments ...
 *     }
 *     if (skill_json_get_integer(arguments, arguments_length, "/count", &count) != SKILL_JSON_OK) ...
 *
 * Every getter returns a skill_json_status; on anything but SKILL_JSON_OK its output is left untouched.
 * Strings are unescaped (\uXXXX and surrogate pairs become UTF-8) and NUL-terminated; a string holding
 * U+0000 is SKILL_JSON_WRONG_TYPE for skill_json_get_string (it cannot be a C string).
 *
 * WRITING. A skill_json_writer builds one JSON value in a growing malloc'd buffer. Commas, quotes and
 * escapes are its business; out of memory or misuse (a value where a key is due, unbalanced ends, nesting
 * deeper than SKILL_JSON_MAX_DEPTH) makes it `failed`, after which it ignores further writes:
 *
 *     skill_json_writer out;
 *     skill_json_writer_init(&out);
 *     skill_json_begin_object(&out);
 *     skill_json_member_string(&out, "unit", "MiB");
 *     skill_json_member_number(&out, "total", 15842.5);
 *     skill_json_end_object(&out);
 *     return skill_json_finish_result(&out, SKILL_STATUS_OK, result);   (hands the buffer to the host)
 *
 * and in the descriptor's free_result: skill_json_free_result(plugin, result) (or call it from yours).
 * Invalid UTF-8 in strings is written as U+FFFD, control characters as escapes, and non-finite numbers as
 * null, so the output is always valid JSON. Errors: skill_json_error(&out, message, field, remedy) writes
 * {"message", "field"?, "remedy"?} in the shape the host expects with an error status.
 *
 * MEMORY. The result buffer is malloc'd by the writer; skill_json_finish_result hands it to the host, and
 * the host gives it back through free_result, which must free() it (skill_json_free_result does). If you
 * do not hand a writer's buffer over, release it with skill_json_writer_dispose.
 */
#ifndef SKILL_JSON_H
#define SKILL_JSON_H

#include "skill_abi.h"

#include <float.h>
#include <limits.h>
#include <locale.h>
#include <math.h> /* HUGE_VAL only: nothing here needs libm */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Nesting limit for reading and writing; deeper documents are SKILL_JSON_INVALID. */
#ifndef SKILL_JSON_MAX_DEPTH
#define SKILL_JSON_MAX_DEPTH 64
#endif

typedef enum skill_json_status {
    SKILL_JSON_OK = 0,
    SKILL_JSON_ABSENT = 1,       /* the pointer leads nowhere (a missing member, an index past the end) */
    SKILL_JSON_WRONG_TYPE = 2,   /* the value is there but of another type (null counts as another type) */
    SKILL_JSON_INVALID = 3,      /* the text is not well-formed JSON, too deep, or the pointer is malformed */
    SKILL_JSON_TOO_LONG = 4,     /* a string does not fit the buffer given */
    SKILL_JSON_OUT_OF_RANGE = 5  /* a number does not fit a double / a long long, or is not whole */
} skill_json_status;

/* ------------------------------------------------------------------------------------------------ */
/* Reading                                                                                           */
/* ------------------------------------------------------------------------------------------------ */

/* Internal: whitespace skipping. */
static inline const char *skill_json__ws(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

static inline int skill_json__hex(const char *p, const char *end, unsigned *value) {
    unsigned v = 0;
    int i;
    if (end - p < 4) return 0;
    for (i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return 0;
    }
    *value = v;
    return 1;
}

/* Internal: the length of the valid UTF-8 sequence at p (1-4), or 0 when invalid. */
static inline int skill_json__utf8_length(const unsigned char *p, const unsigned char *end) {
    unsigned char c = p[0];
    int length, i;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) length = 2;
    else if (c >= 0xE0 && c <= 0xEF) length = 3;
    else if (c >= 0xF0 && c <= 0xF4) length = 4;
    else return 0;
    if (end - p < length) return 0;
    for (i = 1; i < length; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
    }
    if (c == 0xE0 && p[1] < 0xA0) return 0; /* overlong */
    if (c == 0xED && p[1] > 0x9F) return 0; /* surrogate */
    if (c == 0xF0 && p[1] < 0x90) return 0; /* overlong */
    if (c == 0xF4 && p[1] > 0x8F) return 0; /* past U+10FFFF */
    return length;
}

/* Internal: decodes the next character of a string body at *p (after the opening quote) into `bytes`
 * (1-4 UTF-8 bytes). Returns the byte count, 0 at the closing quote (*p moves past it), -1 when malformed. */
static inline int skill_json__next_char(const char **p, const char *end, unsigned char bytes[4]) {
    const char *s = *p;
    unsigned code;
    int n;
    if (s >= end) return -1;
    if (*s == '"') {
        *p = s + 1;
        return 0;
    }
    if ((unsigned char)*s < 0x20) return -1;
    if (*s != '\\') {
        n = skill_json__utf8_length((const unsigned char *)s, (const unsigned char *)end);
        if (n == 0) return -1;
        memcpy(bytes, s, (size_t)n);
        *p = s + n;
        return n;
    }
    if (end - s < 2) return -1;
    switch (s[1]) {
    case '"': bytes[0] = '"'; break;
    case '\\': bytes[0] = '\\'; break;
    case '/': bytes[0] = '/'; break;
    case 'b': bytes[0] = '\b'; break;
    case 'f': bytes[0] = '\f'; break;
    case 'n': bytes[0] = '\n'; break;
    case 'r': bytes[0] = '\r'; break;
    case 't': bytes[0] = '\t'; break;
    case 'u':
        if (!skill_json__hex(s + 2, end, &code)) return -1;
        s += 6;
        if (code >= 0xD800 && code <= 0xDBFF) {
            unsigned low;
            if (end - s < 6 || s[0] != '\\' || s[1] != 'u' || !skill_json__hex(s + 2, end, &low)) return -1;
            if (low < 0xDC00 || low > 0xDFFF) return -1;
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            s += 6;
        } else if (code >= 0xDC00 && code <= 0xDFFF) {
            return -1; /* a lone low surrogate */
        }
        *p = s;
        if (code < 0x80) {
            bytes[0] = (unsigned char)code;
            return 1;
        }
        if (code < 0x800) {
            bytes[0] = (unsigned char)(0xC0 | (code >> 6));
            bytes[1] = (unsigned char)(0x80 | (code & 0x3F));
            return 2;
        }
        if (code < 0x10000) {
            bytes[0] = (unsigned char)(0xE0 | (code >> 12));
            bytes[1] = (unsigned char)(0x80 | ((code >> 6) & 0x3F));
            bytes[2] = (unsigned char)(0x80 | (code & 0x3F));
            return 3;
        }
        bytes[0] = (unsigned char)(0xF0 | (code >> 18));
        bytes[1] = (unsigned char)(0x80 | ((code >> 12) & 0x3F));
        bytes[2] = (unsigned char)(0x80 | ((code >> 6) & 0x3F));
        bytes[3] = (unsigned char)(0x80 | (code & 0x3F));
        return 4;
    default: return -1;
    }
    *p = s + 2;
    return 1;
}

/* Internal: skips a string starting at its opening quote; NULL when malformed. */
static inline const char *skill_json__skip_string(const char *p, const char *end) {
    unsigned char bytes[4];
    int n;
    p++;
    while ((n = skill_json__next_char(&p, end, bytes)) > 0) {
    }
    return n == 0 ? p : NULL;
}

/* Internal: skips a number (RFC 8259 grammar); NULL when malformed. */
static inline const char *skill_json__skip_number(const char *p, const char *end) {
    if (p < end && *p == '-') p++;
    if (p >= end) return NULL;
    if (*p == '0') {
        p++;
    } else if (*p >= '1' && *p <= '9') {
        while (p < end && *p >= '0' && *p <= '9') p++;
    } else {
        return NULL;
    }
    if (p < end && *p == '.') {
        p++;
        if (p >= end || *p < '0' || *p > '9') return NULL;
        while (p < end && *p >= '0' && *p <= '9') p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-')) p++;
        if (p >= end || *p < '0' || *p > '9') return NULL;
        while (p < end && *p >= '0' && *p <= '9') p++;
    }
    return p;
}

static inline const char *skill_json__skip_literal(const char *p, const char *end, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(end - p) < n || memcmp(p, word, n) != 0) return NULL;
    return p + n;
}

/* Internal: skips one value at p (whitespace already skipped); NULL when malformed or deeper than the
 * limit. Iterative over containers' members, recursive only per nesting level (bounded by the depth). */
static inline const char *skill_json__skip_value(const char *p, const char *end, int depth) {
    char close;
    if (p >= end) return NULL;
    switch (*p) {
    case '"': return skill_json__skip_string(p, end);
    case 't': return skill_json__skip_literal(p, end, "true");
    case 'f': return skill_json__skip_literal(p, end, "false");
    case 'n': return skill_json__skip_literal(p, end, "null");
    case '{':
    case '[': break;
    default: return skill_json__skip_number(p, end);
    }
    if (depth >= SKILL_JSON_MAX_DEPTH) return NULL;
    close = *p == '{' ? '}' : ']';
    p = skill_json__ws(p + 1, end);
    if (p < end && *p == close) return p + 1;
    for (;;) {
        if (close == '}') {
            if (p >= end || *p != '"') return NULL;
            p = skill_json__skip_string(p, end);
            if (p == NULL) return NULL;
            p = skill_json__ws(p, end);
            if (p >= end || *p != ':') return NULL;
            p = skill_json__ws(p + 1, end);
        }
        p = skill_json__skip_value(p, end, depth + 1);
        if (p == NULL) return NULL;
        p = skill_json__ws(p, end);
        if (p >= end) return NULL;
        if (*p == close) return p + 1;
        if (*p != ',') return NULL;
        p = skill_json__ws(p + 1, end);
    }
}

/* Internal: whether the string at p (its opening quote) equals the pointer token [token, token_end) with
 * RFC 6901 escapes (~0 is ~, ~1 is /). Sets *after past the string. -1 when the string is malformed. */
static inline int skill_json__key_equals(const char *p, const char *end, const char *token, const char *token_end,
                                         const char **after) {
    unsigned char bytes[4];
    int n, equal = 1, i;
    p++;
    while ((n = skill_json__next_char(&p, end, bytes)) > 0) {
        for (i = 0; i < n; i++) {
            char expected;
            if (token >= token_end) {
                equal = 0;
                continue;
            }
            expected = *token;
            if (expected == '~' && token + 1 < token_end) {
                expected = token[1] == '0' ? '~' : token[1] == '1' ? '/' : '\0';
                token++;
            }
            token++;
            if ((char)bytes[i] != expected) equal = 0;
        }
    }
    if (n < 0) return -1;
    *after = p;
    return equal && token == token_end;
}

/* Internal: finds the value `pointer` names. *value points at its first byte. */
static inline skill_json_status skill_json__find(const char *json, size_t length, const char *pointer,
                                                 const char **value, const char **value_end) {
    const char *end, *p, *rest;
    if (json == NULL || pointer == NULL) return SKILL_JSON_INVALID;
    end = json + length;
    p = skill_json__ws(json, end);
    {
        const char *after = skill_json__skip_value(p, end, 0);
        if (after == NULL || skill_json__ws(after, end) != end) return SKILL_JSON_INVALID;
    }
    rest = pointer;
    if (*rest != '\0' && *rest != '/') return SKILL_JSON_INVALID;
    while (*rest == '/') {
        const char *token = rest + 1, *token_end = token;
        while (*token_end != '\0' && *token_end != '/') token_end++;
        rest = token_end;
        if (*p == '{') {
            p = skill_json__ws(p + 1, end);
            if (*p == '}') return SKILL_JSON_ABSENT;
            for (;;) {
                const char *after;
                int equal = skill_json__key_equals(p, end, token, token_end, &after);
                if (equal < 0) return SKILL_JSON_INVALID;
                p = skill_json__ws(skill_json__ws(after, end) + 1, end); /* past ':' */
                if (equal) break;
                p = skill_json__ws(skill_json__skip_value(p, end, 0), end);
                if (*p == '}') return SKILL_JSON_ABSENT;
                p = skill_json__ws(p + 1, end); /* past ',' */
            }
        } else if (*p == '[') {
            unsigned long index = 0;
            const char *digit;
            if (token == token_end || (*token == '0' && token_end - token > 1)) return SKILL_JSON_INVALID;
            for (digit = token; digit < token_end; digit++) {
                if (*digit < '0' || *digit > '9' || index > 100000000UL) return SKILL_JSON_INVALID;
                index = index * 10 + (unsigned long)(*digit - '0');
            }
            p = skill_json__ws(p + 1, end);
            if (*p == ']') return SKILL_JSON_ABSENT;
            while (index > 0) {
                p = skill_json__ws(skill_json__skip_value(p, end, 0), end);
                if (*p == ']') return SKILL_JSON_ABSENT;
                p = skill_json__ws(p + 1, end);
                index--;
            }
        } else {
            return SKILL_JSON_ABSENT;
        }
    }
    *value = p;
    *value_end = skill_json__skip_value(p, end, 0);
    return SKILL_JSON_OK;
}

/** The kind of the value at `pointer`: SKILL_JSON_OK and *type one of 's' string, 'n' number, 'b' bool,
 *  'z' null, 'o' object, 'a' array. Use it to tell an explicit null from an absent member. */
static inline skill_json_status skill_json_get_type(const char *json, size_t length, const char *pointer, char *type) {
    const char *value, *value_end;
    skill_json_status status = skill_json__find(json, length, pointer, &value, &value_end);
    if (status != SKILL_JSON_OK) return status;
    switch (*value) {
    case '"': *type = 's'; break;
    case 't':
    case 'f': *type = 'b'; break;
    case 'n': *type = 'z'; break;
    case '{': *type = 'o'; break;
    case '[': *type = 'a'; break;
    default: *type = 'n'; break;
    }
    return SKILL_JSON_OK;
}

/** Copies the string at `pointer`, unescaped and NUL-terminated, into `out` (`capacity` bytes);
 *  *out_length (may be NULL) gets its length in bytes. */
static inline skill_json_status skill_json_get_string(const char *json, size_t length, const char *pointer, char *out,
                                                      size_t capacity, size_t *out_length) {
    const char *value, *value_end, *p;
    unsigned char bytes[4];
    size_t used = 0;
    int n;
    skill_json_status status = skill_json__find(json, length, pointer, &value, &value_end);
    if (status != SKILL_JSON_OK) return status;
    if (*value != '"') return SKILL_JSON_WRONG_TYPE;
    if (out == NULL || capacity == 0) return SKILL_JSON_TOO_LONG;
    /* First pass: measure and check for U+0000, so `out` is untouched on failure. */
    p = value + 1;
    while ((n = skill_json__next_char(&p, value_end, bytes)) > 0) {
        if (n == 1 && bytes[0] == 0) return SKILL_JSON_WRONG_TYPE;
        used += (size_t)n;
    }
    if (used >= capacity) return SKILL_JSON_TOO_LONG;
    p = value + 1;
    used = 0;
    while ((n = skill_json__next_char(&p, value_end, bytes)) > 0) {
        memcpy(out + used, bytes, (size_t)n);
        used += (size_t)n;
    }
    out[used] = '\0';
    if (out_length != NULL) *out_length = used;
    return SKILL_JSON_OK;
}

/* Internal: strtod on the number text [p, end) in the C locale's notation whatever the process locale. */
static inline skill_json_status skill_json__strtod(const char *p, const char *end, double *out) {
    char text[512];
    size_t n = (size_t)(end - p), i;
    const char *point = localeconv()->decimal_point;
    char *stop;
    double value;
    if (n >= sizeof text) return SKILL_JSON_OUT_OF_RANGE;
    memcpy(text, p, n);
    text[n] = '\0';
    for (i = 0; i < n; i++) {
        if (text[i] == '.' && point != NULL && point[0] != '\0' && point[1] == '\0') text[i] = point[0];
    }
    value = strtod(text, &stop);
    if (stop != text + n) return SKILL_JSON_INVALID;
    if (value == HUGE_VAL || value == -HUGE_VAL || (value != value)) return SKILL_JSON_OUT_OF_RANGE;
    *out = value;
    return SKILL_JSON_OK;
}

/** Reads the number at `pointer` as a double; SKILL_JSON_OUT_OF_RANGE past ±DBL_MAX (e.g. 1e400). */
static inline skill_json_status skill_json_get_number(const char *json, size_t length, const char *pointer,
                                                      double *out) {
    const char *value, *value_end;
    skill_json_status status = skill_json__find(json, length, pointer, &value, &value_end);
    if (status != SKILL_JSON_OK) return status;
    if (*value != '-' && (*value < '0' || *value > '9')) return SKILL_JSON_WRONG_TYPE;
    return skill_json__strtod(value, value_end, out);
}

/** Reads the number at `pointer` as a long long. Whole numbers written with a fraction or exponent (2.0,
 *  1e3) count, as in JSON Schema's "integer"; 2.5 and anything past the range of long long are
 *  SKILL_JSON_OUT_OF_RANGE. */
static inline skill_json_status skill_json_get_integer(const char *json, size_t length, const char *pointer,
                                                       long long *out) {
    const char *value, *value_end, *p;
    unsigned long long magnitude = 0, limit;
    int negative;
    skill_json_status status = skill_json__find(json, length, pointer, &value, &value_end);
    if (status != SKILL_JSON_OK) return status;
    if (*value != '-' && (*value < '0' || *value > '9')) return SKILL_JSON_WRONG_TYPE;
    for (p = value; p < value_end; p++) {
        if (*p == '.' || *p == 'e' || *p == 'E') {
            double number;
            status = skill_json__strtod(value, value_end, &number);
            if (status != SKILL_JSON_OK) return status;
            /* -2^63 is exact in a double; 2^63 is the first value past the range. */
            if (number < -9223372036854775808.0 || number >= 9223372036854775808.0 ||
                (double)(long long)number != number) {
                return SKILL_JSON_OUT_OF_RANGE;
            }
            *out = (long long)number;
            return SKILL_JSON_OK;
        }
    }
    negative = *value == '-';
    limit = negative ? (unsigned long long)LLONG_MAX + 1ULL : (unsigned long long)LLONG_MAX;
    for (p = value + negative; p < value_end; p++) {
        unsigned digit = (unsigned)(*p - '0');
        if (magnitude > (limit - digit) / 10ULL) return SKILL_JSON_OUT_OF_RANGE;
        magnitude = magnitude * 10ULL + digit;
    }
    if (negative) {
        *out = magnitude == (unsigned long long)LLONG_MAX + 1ULL ? LLONG_MIN : -(long long)magnitude;
    } else {
        *out = (long long)magnitude;
    }
    return SKILL_JSON_OK;
}

/** Reads the boolean at `pointer` into *out (1 or 0). */
static inline skill_json_status skill_json_get_bool(const char *json, size_t length, const char *pointer, int *out) {
    const char *value, *value_end;
    skill_json_status status = skill_json__find(json, length, pointer, &value, &value_end);
    if (status != SKILL_JSON_OK) return status;
    if (*value != 't' && *value != 'f') return SKILL_JSON_WRONG_TYPE;
    *out = *value == 't';
    return SKILL_JSON_OK;
}

/* ------------------------------------------------------------------------------------------------ */
/* Writing                                                                                           */
/* ------------------------------------------------------------------------------------------------ */

/** A JSON value under construction. Initialize with skill_json_writer_init; all fields are private. */
typedef struct skill_json_writer {
    char *bytes;
    size_t length;
    size_t capacity;
    int failed;
    int depth;
    int after_key;                                 /* a key was written; its value is due */
    unsigned char has_items[SKILL_JSON_MAX_DEPTH]; /* per level: something was written (a comma is due) */
    unsigned char is_object[SKILL_JSON_MAX_DEPTH];
    int complete; /* one top-level value has been written */
} skill_json_writer;

static inline void skill_json_writer_init(skill_json_writer *w) { memset(w, 0, sizeof *w); }

/** Frees the buffer of a writer that was not handed to the host. */
static inline void skill_json_writer_dispose(skill_json_writer *w) {
    free(w->bytes);
    skill_json_writer_init(w);
}

/* Internal: appends bytes, growing the buffer (doubling, overflow-checked); keeps a NUL after them. */
static inline void skill_json__append(skill_json_writer *w, const char *bytes, size_t n) {
    if (w->failed) return;
    if (n >= SIZE_MAX - w->length) {
        w->failed = 1;
        return;
    }
    if (w->length + n + 1 > w->capacity) {
        size_t capacity = w->capacity == 0 ? 256 : w->capacity;
        char *grown;
        while (capacity < w->length + n + 1) {
            if (capacity > SIZE_MAX / 2) {
                w->failed = 1;
                return;
            }
            capacity *= 2;
        }
        grown = (char *)realloc(w->bytes, capacity);
        if (grown == NULL) {
            w->failed = 1;
            return;
        }
        w->bytes = grown;
        w->capacity = capacity;
    }
    memcpy(w->bytes + w->length, bytes, n);
    w->length += n;
    w->bytes[w->length] = '\0';
}

/* Internal: what comes before a value: a comma inside a container, nothing after a key; fails when a
 * value is not allowed here (a key is due in an object, or the top-level value is already written). */
static inline int skill_json__before_value(skill_json_writer *w) {
    if (w->failed) return 0;
    if (w->depth == 0) {
        if (w->complete) w->failed = 1;
        return !w->failed;
    }
    if (w->is_object[w->depth - 1]) {
        if (!w->after_key) w->failed = 1;
        w->after_key = 0;
        return !w->failed;
    }
    if (w->has_items[w->depth - 1]) skill_json__append(w, ",", 1);
    w->has_items[w->depth - 1] = 1;
    return !w->failed;
}

static inline void skill_json__after_value(skill_json_writer *w) {
    if (w->depth == 0) w->complete = 1;
}

static inline void skill_json__begin(skill_json_writer *w, int object) {
    if (!skill_json__before_value(w)) return;
    if (w->depth >= SKILL_JSON_MAX_DEPTH) {
        w->failed = 1;
        return;
    }
    skill_json__append(w, object ? "{" : "[", 1);
    w->has_items[w->depth] = 0;
    w->is_object[w->depth] = (unsigned char)object;
    w->depth++;
}

static inline void skill_json__end(skill_json_writer *w, int object) {
    if (w->failed) return;
    if (w->depth == 0 || w->is_object[w->depth - 1] != object || w->after_key) {
        w->failed = 1;
        return;
    }
    skill_json__append(w, object ? "}" : "]", 1);
    w->depth--;
    skill_json__after_value(w);
}

static inline void skill_json_begin_object(skill_json_writer *w) { skill_json__begin(w, 1); }
static inline void skill_json_end_object(skill_json_writer *w) { skill_json__end(w, 1); }
static inline void skill_json_begin_array(skill_json_writer *w) { skill_json__begin(w, 0); }
static inline void skill_json_end_array(skill_json_writer *w) { skill_json__end(w, 0); }

/* Internal: a string literal: quotes, escapes, invalid UTF-8 as U+FFFD. */
static inline void skill_json__quoted(skill_json_writer *w, const char *text, size_t n) {
    const unsigned char *p = (const unsigned char *)text, *end = p + n;
    skill_json__append(w, "\"", 1);
    while (p < end && !w->failed) {
        const unsigned char *run = p;
        int length;
        while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\') p++;
        skill_json__append(w, (const char *)run, (size_t)(p - run));
        if (p >= end) break;
        if (*p == '"') skill_json__append(w, "\\\"", 2);
        else if (*p == '\\') skill_json__append(w, "\\\\", 2);
        else if (*p == '\n') skill_json__append(w, "\\n", 2);
        else if (*p == '\r') skill_json__append(w, "\\r", 2);
        else if (*p == '\t') skill_json__append(w, "\\t", 2);
        else if (*p < 0x20) {
            char escape[7];
            snprintf(escape, sizeof escape, "\\u%04x", (unsigned)*p);
            skill_json__append(w, escape, 6);
        } else {
            length = skill_json__utf8_length(p, end);
            if (length == 0) {
                skill_json__append(w, "\xEF\xBF\xBD", 3);
                p++;
                continue;
            }
            skill_json__append(w, (const char *)p, (size_t)length);
            p += length;
            continue;
        }
        p++;
    }
    skill_json__append(w, "\"", 1);
}

/** Writes a member name inside an object; its value must follow. */
static inline void skill_json_key(skill_json_writer *w, const char *key) {
    if (w->failed) return;
    if (w->depth == 0 || !w->is_object[w->depth - 1] || w->after_key || key == NULL) {
        w->failed = 1;
        return;
    }
    if (w->has_items[w->depth - 1]) skill_json__append(w, ",", 1);
    w->has_items[w->depth - 1] = 1;
    skill_json__quoted(w, key, strlen(key));
    skill_json__append(w, ":", 1);
    w->after_key = 1;
}

/** Writes `length` bytes of `text` as a string (may hold NUL bytes, written as \u0000). */
static inline void skill_json_string_n(skill_json_writer *w, const char *text, size_t length) {
    if (text == NULL) {
        w->failed = 1;
        return;
    }
    if (!skill_json__before_value(w)) return;
    skill_json__quoted(w, text, length);
    skill_json__after_value(w);
}

/** Writes a NUL-terminated string; NULL writes null. */
static inline void skill_json_string(skill_json_writer *w, const char *text) {
    if (text == NULL) {
        if (!skill_json__before_value(w)) return;
        skill_json__append(w, "null", 4);
        skill_json__after_value(w);
        return;
    }
    skill_json_string_n(w, text, strlen(text));
}

static inline void skill_json_integer(skill_json_writer *w, long long value) {
    char text[32];
    int n;
    if (!skill_json__before_value(w)) return;
    n = snprintf(text, sizeof text, "%lld", value);
    skill_json__append(w, text, (size_t)n);
    skill_json__after_value(w);
}

/** Writes a double with up to 17 significant digits (shortest of %.15g/%.17g that reads back the same),
 *  in JSON's notation whatever the locale; NaN and infinities are written as null. */
static inline void skill_json_number(skill_json_writer *w, double value) {
    char text[40];
    const char *point = localeconv()->decimal_point;
    int n, i;
    if (!skill_json__before_value(w)) return;
    if (value != value || value > DBL_MAX || value < -DBL_MAX) {
        skill_json__append(w, "null", 4);
        skill_json__after_value(w);
        return;
    }
    n = snprintf(text, sizeof text, "%.15g", value);
    if (strtod(text, NULL) != value) n = snprintf(text, sizeof text, "%.17g", value);
    for (i = 0; point != NULL && point[0] != '.' && i < n; i++) {
        if (text[i] == point[0]) text[i] = '.'; /* a locale with a decimal comma */
    }
    skill_json__append(w, text, (size_t)n);
    skill_json__after_value(w);
}

static inline void skill_json_bool(skill_json_writer *w, int value) {
    if (!skill_json__before_value(w)) return;
    skill_json__append(w, value ? "true" : "false", value ? 4 : 5);
    skill_json__after_value(w);
}

static inline void skill_json_null(skill_json_writer *w) {
    if (!skill_json__before_value(w)) return;
    skill_json__append(w, "null", 4);
    skill_json__after_value(w);
}

/* One-call members. */
static inline void skill_json_member_string(skill_json_writer *w, const char *key, const char *value) {
    skill_json_key(w, key);
    skill_json_string(w, value);
}
static inline void skill_json_member_integer(skill_json_writer *w, const char *key, long long value) {
    skill_json_key(w, key);
    skill_json_integer(w, value);
}
static inline void skill_json_member_number(skill_json_writer *w, const char *key, double value) {
    skill_json_key(w, key);
    skill_json_number(w, value);
}
static inline void skill_json_member_bool(skill_json_writer *w, const char *key, int value) {
    skill_json_key(w, key);
    skill_json_bool(w, value);
}

/** Whether the writer holds one complete value and nothing went wrong. */
static inline int skill_json_writer_ok(const skill_json_writer *w) {
    return !w->failed && w->depth == 0 && w->complete && w->bytes != NULL;
}

/** Replaces whatever the writer holds with an error object {"message", "field"?, "remedy"?}; `field` is a
 *  JSON Pointer into the arguments (e.g. "/unit") for SKILL_STATUS_INVALID_ARGUMENTS, else NULL. */
static inline void skill_json_error(skill_json_writer *w, const char *message, const char *field, const char *remedy) {
    skill_json_writer_dispose(w);
    skill_json_begin_object(w);
    skill_json_member_string(w, "message", message != NULL ? message : "the skill failed");
    if (field != NULL) skill_json_member_string(w, "field", field);
    if (remedy != NULL) skill_json_member_string(w, "remedy", remedy);
    skill_json_end_object(w);
}

/** Hands the writer's buffer to the host as the call's result and returns `status`. When the writer
 *  failed (out of memory, unbalanced) it frees the buffer and returns SKILL_STATUS_INTERNAL with no JSON.
 *  The writer is empty afterwards. */
static inline skill_status skill_json_finish_result(skill_json_writer *w, skill_status status, skill_result *result) {
    if (!skill_json_writer_ok(w)) {
        skill_json_writer_dispose(w);
        status = SKILL_STATUS_INTERNAL;
        result->json = NULL;
        result->json_length = 0;
    } else {
        result->json = w->bytes;
        result->json_length = w->length;
        skill_json_writer_init(w);
    }
    result->status = status;
    result->plugin_data = NULL;
    return status;
}

/** Frees a result made by skill_json_finish_result; fits the descriptor's free_result slot. */
static inline void skill_json_free_result(const skill_plugin_descriptor *plugin, skill_result *result) {
    (void)plugin;
    if (result == NULL) return;
    free((void *)result->json);
    result->json = NULL;
    result->json_length = 0;
}

#ifdef __cplusplus
}
#endif

#endif /* SKILL_JSON_H */
