/* unicode_number.c: int(s) and float(s) of a string, with CPython's grammar: surrounding
 * whitespace, a sign, any Unicode decimal digits ('١٢' is 12), single underscores between
 * digits; float() also 'inf', 'infinity' and 'nan' in any case, a point and an exponent (no
 * hex). The digits are rewritten as ASCII and read by strtod (correctly rounded). Called
 * without the GIL: 0 done, -1 not a number (the caller raises ValueError), -2 an int past
 * int64 (OverflowError), -3 out of memory. */
#include "abi/abi.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* s without its surrounding whitespace, each character ASCII where it can be (a decimal
 * digit its ASCII digit), into buf (NUL-terminated); -1 when something else is non-ASCII or
 * the text is longer than cap - 1. */
static int ascii_text(const cj_str *s, char *buf, int64_t cap) {
    int64_t i = 0, j = s->length, n = 0;
    while (i < j && Py_UNICODE_ISSPACE(cj_str_char(s, i))) {
        i++;
    }
    while (j > i && Py_UNICODE_ISSPACE(cj_str_char(s, j - 1))) {
        j--;
    }
    for (; i < j; i++) {
        uint32_t c = cj_str_char(s, i);
        int digit = c < 128 ? -1 : Py_UNICODE_TODECIMAL(c);
        if ((c >= 128 && digit < 0) || c == 0 || n >= cap - 1) {
            return -1;
        }
        buf[n++] = (char)(digit >= 0 ? '0' + digit : (int)c);
    }
    buf[n] = 0;
    return 0;
}

/* Drops the underscores of a run of digits at *p (each between two digits); the digits
 * copied to *out. -1 when the run is empty or an underscore is misplaced. */
static int digits(const char **p, char **out) {
    const char *q = *p;
    if (*q < '0' || *q > '9') {
        return -1;
    }
    while ((*q >= '0' && *q <= '9') || *q == '_') {
        if (*q == '_' && (q[1] < '0' || q[1] > '9')) {
            return -1;
        }
        if (*q != '_') {
            *(*out)++ = *q;
        }
        q++;
    }
    *p = q;
    return 0;
}

/* Two buffers for s's text (NULL out of memory; the caller frees the first). */
static char *buffers(const cj_meminfo *am, char **clean) {
    size_t n = (size_t)((const cj_str *)am->data)->length + 2;
    char *text = malloc(2 * n);
    *clean = text != NULL ? text + n : NULL;
    return text;
}

static int32_t parse_int(const cj_meminfo *am, char *text, char *clean, int64_t *value) {
    const char *p = text;
    char *out = clean;
    if (ascii_text(am->data, text, ((const cj_str *)am->data)->length + 1) < 0) {
        return -1;
    }
    if (*p == '+' || *p == '-') {
        *out++ = *p++;
    }
    if (digits(&p, &out) < 0 || *p != 0) {
        return -1;
    }
    *out = 0;
    errno = 0;
    long long v = strtoll(clean, NULL, 10);
    if (errno == ERANGE) {
        return -2;
    }
    *value = v;
    return 0;
}

int32_t cj_str_to_int(const cj_meminfo *am, int64_t *value) {
    char *clean, *text = buffers(am, &clean);
    if (text == NULL) {
        return -3;
    }
    int32_t rc = parse_int(am, text, clean, value);
    free(text);
    return rc;
}

/* inf, infinity, nan (any case, after an optional sign). */
static int special(const char *p, double *value) {
    int neg = *p == '-';
    p += *p == '+' || *p == '-';
    if (strcasecmp(p, "inf") == 0 || strcasecmp(p, "infinity") == 0) {
        *value = neg ? -Py_HUGE_VAL : Py_HUGE_VAL;
        return 1;
    }
    if (strcasecmp(p, "nan") == 0) {
        *value = neg ? -Py_NAN : Py_NAN;
        return 1;
    }
    return 0;
}

static int32_t parse_float(const cj_meminfo *am, char *text, char *clean, double *value) {
    const char *p = text;
    char *out = clean;
    if (ascii_text(am->data, text, ((const cj_str *)am->data)->length + 1) < 0) {
        return -1;
    }
    if (special(p, value)) {
        return 0;
    }
    if (*p == '+' || *p == '-') {
        *out++ = *p++;
    }
    int whole = digits(&p, &out) == 0, frac = 0;
    if (*p == '.') {
        *out++ = *p++;
        frac = digits(&p, &out) == 0;
    }
    if (!whole && !frac) {
        return -1;
    }
    if (*p == 'e' || *p == 'E') {
        *out++ = *p++;
        if (*p == '+' || *p == '-') {
            *out++ = *p++;
        }
        if (digits(&p, &out) < 0) {
            return -1;
        }
    }
    if (*p != 0) {
        return -1;
    }
    *out = 0;
    *value = strtod(clean, NULL);
    return 0;
}

int32_t cj_str_to_float(const cj_meminfo *am, double *value) {
    char *clean, *text = buffers(am, &clean);
    if (text == NULL) {
        return -3;
    }
    int32_t rc = parse_float(am, text, clean, value);
    free(text);
    return rc;
}
