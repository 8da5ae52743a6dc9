/*
 * skill_json_test.c — exercises skill_json.h with well-formed and hostile inputs. Built and run by
 * Tests/SkillSDKTests/SkillJSONHeaderTests.swift (pedantic C99, every warning an error, and under
 * -fsanitize=address,undefined when the compiler has it). Prints one line per failed check and exits 1 if
 * any failed; prints "ok N checks" otherwise.
 */
#include "skill_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks, failures;

#define CHECK(condition)                                                                \
    do {                                                                                \
        checks++;                                                                       \
        if (!(condition)) {                                                             \
            failures++;                                                                 \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #condition);                 \
        }                                                                               \
    } while (0)

#define TEXT(literal) literal, sizeof literal - 1

static void reads_typed_members(void) {
    static const char json[] = " {\"unit\":\"MiB\",\"count\":42,\"ratio\":-2.5e1,\"on\":true,\"off\":false,\"none\":null,"
                               "\"range\":{\"start\":\"2026-12-01\",\"a/b\":1,\"t~x\":2},\"items\":[10,[20,21],{\"k\":\"v\"}],"
                               "\"esc\":\"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00\",\"whole\":3.0,\"big\":1e3} ";
    char text[64];
    size_t length = 0;
    long long integer = 0;
    double number = 0;
    int flag = -1;
    char type = 0;
    CHECK(skill_json_get_string(TEXT(json), "/unit", text, sizeof text, &length) == SKILL_JSON_OK);
    CHECK(strcmp(text, "MiB") == 0 && length == 3);
    CHECK(skill_json_get_integer(TEXT(json), "/count", &integer) == SKILL_JSON_OK && integer == 42);
    CHECK(skill_json_get_number(TEXT(json), "/ratio", &number) == SKILL_JSON_OK && number == -25.0);
    CHECK(skill_json_get_number(TEXT(json), "/count", &number) == SKILL_JSON_OK && number == 42.0);
    CHECK(skill_json_get_bool(TEXT(json), "/on", &flag) == SKILL_JSON_OK && flag == 1);
    CHECK(skill_json_get_bool(TEXT(json), "/off", &flag) == SKILL_JSON_OK && flag == 0);
    CHECK(skill_json_get_string(TEXT(json), "/range/start", text, sizeof text, NULL) == SKILL_JSON_OK);
    CHECK(strcmp(text, "2026-12-01") == 0);
    CHECK(skill_json_get_integer(TEXT(json), "/range/a~1b", &integer) == SKILL_JSON_OK && integer == 1);
    CHECK(skill_json_get_integer(TEXT(json), "/range/t~0x", &integer) == SKILL_JSON_OK && integer == 2);
    CHECK(skill_json_get_integer(TEXT(json), "/items/0", &integer) == SKILL_JSON_OK && integer == 10);
    CHECK(skill_json_get_integer(TEXT(json), "/items/1/1", &integer) == SKILL_JSON_OK && integer == 21);
    CHECK(skill_json_get_string(TEXT(json), "/items/2/k", text, sizeof text, NULL) == SKILL_JSON_OK);
    CHECK(strcmp(text, "v") == 0);
    CHECK(skill_json_get_string(TEXT(json), "/esc", text, sizeof text, &length) == SKILL_JSON_OK);
    CHECK(strcmp(text, "a\"b\\c\n\xC3\xA9\xF0\x9F\x98\x80") == 0 && length == 12);
    CHECK(skill_json_get_integer(TEXT(json), "/whole", &integer) == SKILL_JSON_OK && integer == 3);
    CHECK(skill_json_get_integer(TEXT(json), "/big", &integer) == SKILL_JSON_OK && integer == 1000);
    CHECK(skill_json_get_type(TEXT(json), "/none", &type) == SKILL_JSON_OK && type == 'z');
    CHECK(skill_json_get_type(TEXT(json), "/items", &type) == SKILL_JSON_OK && type == 'a');
    CHECK(skill_json_get_type(TEXT(json), "", &type) == SKILL_JSON_OK && type == 'o');
}

static void reports_absent_and_wrong_types(void) {
    static const char json[] = "{\"unit\":\"MiB\",\"count\":42,\"none\":null,\"items\":[1],\"empty\":{}}";
    char text[4] = "xyz";
    long long integer = 7;
    int flag = 7;
    CHECK(skill_json_get_string(TEXT(json), "/missing", text, sizeof text, NULL) == SKILL_JSON_ABSENT);
    CHECK(skill_json_get_string(TEXT(json), "/empty/x", text, sizeof text, NULL) == SKILL_JSON_ABSENT);
    CHECK(skill_json_get_integer(TEXT(json), "/items/1", &integer) == SKILL_JSON_ABSENT);
    CHECK(skill_json_get_integer(TEXT(json), "/unit/x", &integer) == SKILL_JSON_ABSENT);
    CHECK(skill_json_get_string(TEXT(json), "/count", text, sizeof text, NULL) == SKILL_JSON_WRONG_TYPE);
    CHECK(skill_json_get_integer(TEXT(json), "/unit", &integer) == SKILL_JSON_WRONG_TYPE);
    CHECK(skill_json_get_bool(TEXT(json), "/none", &flag) == SKILL_JSON_WRONG_TYPE);
    CHECK(skill_json_get_integer(TEXT(json), "/items/01", &integer) == SKILL_JSON_INVALID);
    CHECK(skill_json_get_integer(TEXT(json), "count", &integer) == SKILL_JSON_INVALID);
    CHECK(strcmp(text, "xyz") == 0 && integer == 7 && flag == 7); /* outputs untouched on failure */
    /* A string one byte too long for the buffer (no room for the NUL). */
    CHECK(skill_json_get_string(TEXT("{\"s\":\"abcd\"}"), "/s", text, sizeof text, NULL) == SKILL_JSON_TOO_LONG);
    CHECK(skill_json_get_string(TEXT("{\"s\":\"abc\"}"), "/s", text, sizeof text, NULL) == SKILL_JSON_OK);
    CHECK(skill_json_get_string(TEXT("{\"s\":\"a\\u0000b\"}"), "/s", text, sizeof text, NULL) == SKILL_JSON_WRONG_TYPE);
}

static void refuses_hostile_input(void) {
    static const char *const malformed[] = {
        "", "   ", "{", "{\"a\"", "{\"a\":", "{\"a\":1", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[1,]", "[1 2]",
        "{\"a\":\"unterminated", "{\"a\":\"bad \\x escape\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\ud800\"}",
        "{\"a\":\"\\udc00\"}", "{\"a\":\"\\ud800\\u0041\"}", "{\"a\":\"raw\ncontrol\"}", "{\"a\":\"\xC0\xAF\"}",
        "{\"a\":\"\xED\xA0\x80\"}", "{\"a\":\"\xF5\x80\x80\x80\"}", "{\"a\":\"\xE2\x82\"}", "{\"a\":01}",
        "{\"a\":-}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":1e}", "{\"a\":+1}", "{\"a\":tru}", "{\"a\":nul}",
        "{\"a\":1} x", "{\"a\":1}{}", "{\"a\":NaN}", "{\"a\":Infinity}",
    };
    size_t i;
    long long integer = 0;
    for (i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        skill_json_status status = skill_json_get_integer(malformed[i], strlen(malformed[i]), "/a", &integer);
        if (status != SKILL_JSON_INVALID) printf("  malformed input %zu: %s\n", i, malformed[i]);
        CHECK(status == SKILL_JSON_INVALID);
    }
    /* Truncation at every length of a valid document, and a length that stops before a NUL-free end. */
    {
        static const char json[] = "{\"unit\":\"M\\u00e9B\",\"n\":[1,{\"x\":true}]}";
        size_t cut;
        char text[16];
        for (cut = 0; cut < sizeof json - 1; cut++) {
            CHECK(skill_json_get_string(json, cut, "/unit", text, sizeof text, NULL) == SKILL_JSON_INVALID);
        }
        CHECK(skill_json_get_string(json, sizeof json - 1, "/unit", text, sizeof text, NULL) == SKILL_JSON_OK);
    }
    /* A NULL document or pointer. */
    CHECK(skill_json_get_integer(NULL, 0, "/a", &integer) == SKILL_JSON_INVALID);
    CHECK(skill_json_get_integer(TEXT("{}"), NULL, &integer) == SKILL_JSON_INVALID);
}

static void bounds_nesting(void) {
    /* 100 000 nested arrays would overflow a naive recursive parser's stack: refused at the depth limit. */
    size_t depth = 100000, i;
    char *deep = (char *)malloc(depth * 2 + 16);
    char *p = deep;
    long long integer = 0;
    char type = 0;
    p += sprintf(p, "{\"a\":");
    for (i = 0; i < depth; i++) *p++ = '[';
    for (i = 0; i < depth; i++) *p++ = ']';
    *p++ = '}';
    CHECK(skill_json_get_integer(deep, (size_t)(p - deep), "/a", &integer) == SKILL_JSON_INVALID);
    /* Exactly at the limit is fine. */
    p = deep + sprintf(deep, "{\"a\":");
    for (i = 0; i < SKILL_JSON_MAX_DEPTH - 1; i++) *p++ = '[';
    for (i = 0; i < SKILL_JSON_MAX_DEPTH - 1; i++) *p++ = ']';
    *p++ = '}';
    CHECK(skill_json_get_type(deep, (size_t)(p - deep), "/a", &type) == SKILL_JSON_OK && type == 'a');
    free(deep);
}

static void bounds_numbers(void) {
    long long integer = 0;
    double number = 0;
    CHECK(skill_json_get_integer(TEXT("{\"n\":9223372036854775807}"), "/n", &integer) == SKILL_JSON_OK);
    CHECK(integer == LLONG_MAX);
    CHECK(skill_json_get_integer(TEXT("{\"n\":-9223372036854775808}"), "/n", &integer) == SKILL_JSON_OK);
    CHECK(integer == LLONG_MIN);
    CHECK(skill_json_get_integer(TEXT("{\"n\":9223372036854775808}"), "/n", &integer) == SKILL_JSON_OUT_OF_RANGE);
    CHECK(skill_json_get_integer(TEXT("{\"n\":-9223372036854775809}"), "/n", &integer) == SKILL_JSON_OUT_OF_RANGE);
    CHECK(skill_json_get_integer(TEXT("{\"n\":99999999999999999999999999999}"), "/n", &integer) ==
          SKILL_JSON_OUT_OF_RANGE);
    CHECK(skill_json_get_integer(TEXT("{\"n\":1e19}"), "/n", &integer) == SKILL_JSON_OUT_OF_RANGE);
    CHECK(skill_json_get_integer(TEXT("{\"n\":2.5}"), "/n", &integer) == SKILL_JSON_OUT_OF_RANGE);
    CHECK(skill_json_get_number(TEXT("{\"n\":1e400}"), "/n", &number) == SKILL_JSON_OUT_OF_RANGE);
    CHECK(skill_json_get_number(TEXT("{\"n\":-1e400}"), "/n", &number) == SKILL_JSON_OUT_OF_RANGE);
    CHECK(skill_json_get_number(TEXT("{\"n\":1e-400}"), "/n", &number) == SKILL_JSON_OK && number == 0.0);
    CHECK(skill_json_get_number(TEXT("{\"n\":0.1}"), "/n", &number) == SKILL_JSON_OK && number == 0.1);
    {
        /* A 600-digit number: valid JSON, too long to convert. */
        char json[700];
        size_t i;
        strcpy(json, "{\"n\":");
        for (i = 0; i < 600; i++) json[5 + i] = '7';
        strcpy(json + 605, "}");
        CHECK(skill_json_get_number(json, strlen(json), "/n", &number) == SKILL_JSON_OUT_OF_RANGE);
        CHECK(skill_json_get_integer(json, strlen(json), "/n", &integer) == SKILL_JSON_OUT_OF_RANGE);
    }
}

static void writes_escaped_valid_json(void) {
    skill_json_writer w;
    skill_result result;
    static const char expected[] =
        "{\"text\":\"quote \\\" backslash \\\\ newline \\n tab \\t bell \\u0007 \xC3\xA9 bad \xEF\xBF\xBD\","
        "\"n\":-12,\"x\":0.1,\"big\":1e+300,\"whole\":2,\"nan\":null,\"yes\":true,\"list\":[1,\"two\",null,[]],"
        "\"nested\":{\"empty\":{}},\"nul\":\"a\\u0000b\"}";
    skill_json_writer_init(&w);
    skill_json_begin_object(&w);
    skill_json_member_string(&w, "text", "quote \" backslash \\ newline \n tab \t bell \a \xC3\xA9 bad \xFF");
    skill_json_member_integer(&w, "n", -12);
    skill_json_member_number(&w, "x", 0.1);
    skill_json_member_number(&w, "big", 1e300);
    skill_json_member_number(&w, "whole", 2.0);
    skill_json_member_number(&w, "nan", strtod("nan", NULL));
    skill_json_member_bool(&w, "yes", 1);
    skill_json_key(&w, "list");
    skill_json_begin_array(&w);
    skill_json_integer(&w, 1);
    skill_json_string(&w, "two");
    skill_json_null(&w);
    skill_json_begin_array(&w);
    skill_json_end_array(&w);
    skill_json_end_array(&w);
    skill_json_key(&w, "nested");
    skill_json_begin_object(&w);
    skill_json_key(&w, "empty");
    skill_json_begin_object(&w);
    skill_json_end_object(&w);
    skill_json_end_object(&w);
    skill_json_key(&w, "nul");
    skill_json_string_n(&w, "a\0b", 3);
    skill_json_end_object(&w);
    CHECK(skill_json_writer_ok(&w));
    if (w.bytes != NULL && strcmp(w.bytes, expected) != 0) printf("  wrote    %s\n  expected %s\n", w.bytes, expected);
    CHECK(w.bytes != NULL && strcmp(w.bytes, expected) == 0);
    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    CHECK(skill_json_finish_result(&w, SKILL_STATUS_OK, &result) == SKILL_STATUS_OK);
    CHECK(result.json != NULL && result.json_length == sizeof expected - 1 && w.bytes == NULL);
    /* What we wrote reads back. */
    {
        char text[128];
        CHECK(skill_json_get_string(result.json, result.json_length, "/nested/empty", text, sizeof text, NULL) ==
              SKILL_JSON_WRONG_TYPE);
        CHECK(skill_json_get_string(result.json, result.json_length, "/text", text, sizeof text, NULL) == SKILL_JSON_OK);
    }
    skill_json_free_result(NULL, &result);
    CHECK(result.json == NULL);
}

static void grows_without_overflow(void) {
    skill_json_writer w;
    size_t i;
    skill_json_writer_init(&w);
    skill_json_begin_array(&w);
    for (i = 0; i < 100000; i++) skill_json_string(&w, "0123456789");
    skill_json_end_array(&w);
    CHECK(skill_json_writer_ok(&w));
    CHECK(w.length == 2 + 100000 * 12 + 99999); /* brackets, strings, commas */
    skill_json_writer_dispose(&w);
}

static void refuses_misuse(void) {
    skill_json_writer w;
    skill_result result;
    size_t i;
    memset(&result, 0, sizeof result);
    /* A value where a key is due. */
    skill_json_writer_init(&w);
    skill_json_begin_object(&w);
    skill_json_integer(&w, 1);
    CHECK(w.failed);
    CHECK(skill_json_finish_result(&w, SKILL_STATUS_OK, &result) == SKILL_STATUS_INTERNAL && result.json == NULL);
    /* Unbalanced and mismatched ends, a key outside an object, two top-level values. */
    skill_json_writer_init(&w);
    skill_json_begin_array(&w);
    CHECK(!skill_json_writer_ok(&w));
    skill_json_end_object(&w);
    CHECK(w.failed);
    skill_json_writer_dispose(&w);
    skill_json_key(&w, "k");
    CHECK(w.failed);
    skill_json_writer_dispose(&w);
    skill_json_integer(&w, 1);
    skill_json_integer(&w, 2);
    CHECK(w.failed);
    skill_json_writer_dispose(&w);
    /* Nesting past the limit. */
    for (i = 0; i < SKILL_JSON_MAX_DEPTH + 1; i++) skill_json_begin_array(&w);
    CHECK(w.failed);
    skill_json_writer_dispose(&w);
    /* The error shape. */
    skill_json_begin_object(&w);
    skill_json_member_string(&w, "partial", "result");
    skill_json_error(&w, "unknown unit \"parsec\"", "/unit", "use one of bytes, KiB, MiB, GiB");
    CHECK(skill_json_writer_ok(&w));
    CHECK(strcmp(w.bytes, "{\"message\":\"unknown unit \\\"parsec\\\"\",\"field\":\"/unit\","
                          "\"remedy\":\"use one of bytes, KiB, MiB, GiB\"}") == 0);
    skill_json_writer_dispose(&w);
}

int main(void) {
    reads_typed_members();
    reports_absent_and_wrong_types();
    refuses_hostile_input();
    bounds_nesting();
    bounds_numbers();
    writes_escaped_valid_json();
    grows_without_overflow();
    refuses_misuse();
    if (failures > 0) {
        printf("%d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("ok %d checks\n", checks);
    return 0;
}
