/*
 * mx_cjson.c — Matrix canonical JSON over json-c values (mx_cjson.h): a
 * growing buffer, objects' keys sorted with strcmp (UTF-8 bytes sort as
 * code points), integers printed with PRId64.
 */
#include "mx_cjson.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct buf {
    char *p;
    size_t len, cap;
    bool bad; /* out of memory or a float */
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->bad)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (p == NULL) {
            b->bad = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void put_str(buf *b, const char *s, size_t n)
{
    put(b, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        const char *e = NULL;
        switch (c) {
        case '"':
            e = "\\\"";
            break;
        case '\\':
            e = "\\\\";
            break;
        case '\b':
            e = "\\b";
            break;
        case '\f':
            e = "\\f";
            break;
        case '\n':
            e = "\\n";
            break;
        case '\r':
            e = "\\r";
            break;
        case '\t':
            e = "\\t";
            break;
        default:
            if (c < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04x", c);
                e = esc;
            }
        }
        if (e != NULL)
            put(b, e, strlen(e));
        else
            put(b, s + i, 1);
    }
    put(b, "\"", 1);
}

static int cmp_keys(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void put_value(buf *b, json_object *v, bool skip)
{
    char num[32];
    switch (json_object_get_type(v)) {
    case json_type_null:
        put(b, "null", 4);
        break;
    case json_type_boolean:
        put(b, json_object_get_boolean(v) ? "true" : "false", json_object_get_boolean(v) ? 4 : 5);
        break;
    case json_type_int:
        snprintf(num, sizeof num, "%" PRId64, json_object_get_int64(v));
        put(b, num, strlen(num));
        break;
    case json_type_double:
        b->bad = true;
        break;
    case json_type_string:
        put_str(b, json_object_get_string(v), (size_t)json_object_get_string_len(v));
        break;
    case json_type_array: {
        put(b, "[", 1);
        size_t n = json_object_array_length(v);
        for (size_t i = 0; i < n; i++) {
            if (i > 0)
                put(b, ",", 1);
            put_value(b, json_object_array_get_idx(v, i), false);
        }
        put(b, "]", 1);
        break;
    }
    case json_type_object: {
        int n = json_object_object_length(v), k = 0;
        const char **keys = malloc(sizeof *keys * (size_t)(n > 0 ? n : 1));
        if (keys == NULL) {
            b->bad = true;
            return;
        }
        json_object_object_foreach(v, key, val)
        {
            (void)val;
            if (!skip || (strcmp(key, "signatures") != 0 && strcmp(key, "unsigned") != 0))
                keys[k++] = key;
        }
        qsort(keys, (size_t)k, sizeof *keys, cmp_keys);
        put(b, "{", 1);
        for (int i = 0; i < k; i++) {
            if (i > 0)
                put(b, ",", 1);
            put_str(b, keys[i], strlen(keys[i]));
            put(b, ":", 1);
            put_value(b, json_object_object_get(v, keys[i]), false);
        }
        put(b, "}", 1);
        free(keys);
        break;
    }
    }
}

char *mx_cjson(json_object *v, int skip_top)
{
    buf b = {0};
    put_value(&b, v, skip_top != 0);
    if (b.bad) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
