/* unicode_repr.c: repr() of a string and str()/repr() of a bool, with CPython's rules
 * (unicode_repr): the quote is ' unless the text holds ' and no "; the quote and \ are
 * escaped, \t \n \r by name, other non-printable code points as \xhh, \uhhhh or \Uhhhhhhhh
 * (Py_UNICODE_ISPRINTABLE decides, as CPython's). Over unicode.c's cj_str; called without
 * the GIL: a NULL result is out of memory. */
#include "abi/abi.h"

#include <stdlib.h>
#include <string.h>

cj_meminfo *cj_str_from_bool(int32_t v) {
    const char *text = v ? "True" : "False";
    return cj_str_from_data(text, (int64_t)strlen(text), 1);
}

/* Whether the text holds ch. */
static int holds(const cj_str *a, uint32_t ch) {
    for (int64_t i = 0; i < a->length; i++) {
        if (cj_str_char(a, i) == ch) {
            return 1;
        }
    }
    return 0;
}

/* Writes c escaped as \<letter><digits hex digits> at buf[*at]. */
static void put_hex(uint32_t *buf, int64_t *at, char letter, int digits, uint32_t c) {
    static const char hex[] = "0123456789abcdef";
    buf[(*at)++] = '\\';
    buf[(*at)++] = (uint32_t)letter;
    for (int k = digits - 1; k >= 0; k--) {
        buf[(*at)++] = (uint32_t)hex[(c >> (4 * k)) & 0xF];
    }
}

/* Writes code point c as it appears inside the quotes of a repr. */
static void put_escaped(uint32_t *buf, int64_t *at, uint32_t c, uint32_t quote) {
    if (c == quote || c == '\\') {
        buf[(*at)++] = '\\';
        buf[(*at)++] = c;
    } else if (c == '\t' || c == '\n' || c == '\r') {
        buf[(*at)++] = '\\';
        buf[(*at)++] = c == '\t' ? 't' : (c == '\n' ? 'n' : 'r');
    } else if (c < ' ' || c == 0x7F) {
        put_hex(buf, at, 'x', 2, c);
    } else if (c < 0x7F || Py_UNICODE_ISPRINTABLE(c)) {
        buf[(*at)++] = c;
    } else if (c <= 0xFF) {
        put_hex(buf, at, 'x', 2, c);
    } else if (c <= 0xFFFF) {
        put_hex(buf, at, 'u', 4, c);
    } else {
        put_hex(buf, at, 'U', 8, c);
    }
}

cj_meminfo *cj_str_repr(const cj_meminfo *am) {
    const cj_str *a = am->data;
    uint32_t quote = holds(a, '\'') && !holds(a, '"') ? '"' : '\'';
    /* at most 10 code points per character (\Uhhhhhhhh), and the quotes */
    uint32_t *buf = malloc((size_t)(a->length * 10 + 2) * sizeof(uint32_t));
    if (buf == NULL) {
        return NULL;
    }
    int64_t at = 0;
    buf[at++] = quote;
    for (int64_t i = 0; i < a->length; i++) {
        put_escaped(buf, &at, cj_str_char(a, i), quote);
    }
    buf[at++] = quote;
    cj_meminfo *mi = cj_str_from_data(buf, at, 4);
    free(buf);
    return mi;
}
