/* nvvm_text.c: LLVM 14's printed IR -> the LLVM 7 syntax NVVM's legacy reader parses.
 * Why text at all: LLVM 7's bitcode reader cannot read LLVM 14's records for atomicrmw, cmpxchg
 * and debug-info metadata (verified against CUDA 13's libnvvm), while its text reader reads
 * them once a few spellings are changed back. The module has been legalized first
 * (nvvm_legalize.c: no unknown attributes, fneg, freeze or poison), so what is left is syntax:
 *   - `atomicrmw ...` and `cmpxchg ...` lose their `, align N` (LLVM 13 syntax; LLVM 7 derives
 *     the alignment from the type, which is what LLVM 14 prints anyway for our atomics);
 *   - !DISubprogram's `spFlags: A | B` (LLVM 8) becomes `isLocal:`, `isDefinition:`,
 *     `isOptimized:` and `virtuality:`;
 *   - `poison` (LLVM 12) left inside constants (nvvm_legalize.c rewrites operands only) becomes
 *     `undef`: every bare `poison` token outside quotes;
 *   - debug-info fields LLVM 7 did not have are dropped (nameTableKind, sysroot, sdk,
 *     rangesBaseAddress, annotations, targetFuncName, DIFile source): none of them affects line
 *     tables. */
#include "target/nvvm_internal.h"

#include <string.h>

typedef struct text_buf {
    char *data;
    size_t len;
    size_t cap;
} text_buf;

static int put(text_buf *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap : 4096);
        while (cap < b->len + n + 1) {
            cap *= 2;
        }
        char *data = PyMem_Realloc(b->data, cap);
        if (data == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->data = data;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

static int puts_(text_buf *b, const char *s) {
    return put(b, s, strlen(s));
}

/* Where the value starting at `v` ends (inside a line of `end`): a quoted string, or up to the
 * next ',' or ')' outside parentheses. */
static const char *value_end(const char *v, const char *end) {
    if (v < end && *v == '"') {
        const char *q = memchr(v + 1, '"', (size_t)(end - v - 1)); /* LLVM escapes '"' as \22 */
        return q ? q + 1 : end;
    }
    int depth = 0;
    for (; v < end; v++) {
        if (*v == '(') {
            depth++;
        } else if (*v == ')' && depth-- == 0) {
            return v;
        } else if (*v == ',' && depth == 0) {
            return v;
        }
    }
    return end;
}

/* Finds `, <field>: ` in [line, end): its start, or NULL. */
static const char *find_field(const char *line, const char *end, const char *field) {
    size_t n = strlen(field);
    for (const char *p = line; p + n + 4 <= end; p++) {
        if (p[0] == ',' && p[1] == ' ' && memcmp(p + 2, field, n) == 0 && p[2 + n] == ':' &&
            p[3 + n] == ' ') {
            return p;
        }
    }
    return NULL;
}

static int contains(const char *s, const char *end, const char *what) {
    size_t n = strlen(what);
    for (const char *p = s; p + n <= end; p++) {
        if (memcmp(p, what, n) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Writes LLVM 7's fields for the DISPFlag* list [flags, end). */
static int put_sp_flags(text_buf *b, const char *flags, const char *end) {
    int local = contains(flags, end, "DISPFlagLocalToUnit");
    int definition = contains(flags, end, "DISPFlagDefinition");
    int optimized = contains(flags, end, "DISPFlagOptimized");
    const char *virtuality = contains(flags, end, "DISPFlagPureVirtual") ? "DW_VIRTUALITY_pure_virtual"
                             : contains(flags, end, "DISPFlagVirtual") ? "DW_VIRTUALITY_virtual"
                                                                       : NULL;
    char text[200];
    PyOS_snprintf(text, sizeof(text), "isLocal: %s, isDefinition: %s, isOptimized: %s%s%s",
                  local ? "true" : "false", definition ? "true" : "false",
                  optimized ? "true" : "false", virtuality ? ", virtuality: " : "",
                  virtuality ? virtuality : "");
    return puts_(b, text);
}

static const char *const dropped_fields[] = {
    "nameTableKind", "sysroot", "sdk", "rangesBaseAddress", "annotations", "targetFuncName",
    "source",
};

/* A metadata line [line, end) rewritten into `b`. */
static int put_metadata_line(text_buf *b, const char *line, const char *end) {
    const char *p = line;
    while (p < end) {
        /* the earliest field to drop or rewrite from p on */
        const char *hit = NULL, *hit_value = NULL;
        int is_sp_flags = 0;
        for (size_t i = 0; i <= sizeof(dropped_fields) / sizeof(dropped_fields[0]); i++) {
            int sp = i == sizeof(dropped_fields) / sizeof(dropped_fields[0]);
            const char *f = find_field(p, end, sp ? "spFlags" : dropped_fields[i]);
            if (f != NULL && (hit == NULL || f < hit)) {
                hit = f;
                is_sp_flags = sp;
                hit_value = f + 2 + strlen(sp ? "spFlags" : dropped_fields[i]) + 2;
            }
        }
        if (hit == NULL) {
            return put(b, p, (size_t)(end - p));
        }
        const char *vend = value_end(hit_value, end);
        if (put(b, p, (size_t)(hit - p)) < 0) {
            return -1;
        }
        if (is_sp_flags && (puts_(b, ", ") < 0 || put_sp_flags(b, hit_value, vend) < 0)) {
            return -1;
        }
        p = vend;
    }
    return 0;
}

static int is_delimiter(char c) {
    return c == ' ' || c == ',' || c == ')' || c == '>' || c == ']' || c == '}' || c == '\t';
}

/* [line, end) into `b` with each bare `poison` token outside quotes spelled `undef`. */
static int put_without_poison(text_buf *b, const char *line, const char *end) {
    const char *p = line, *copied = line;
    int quoted = 0;
    for (; p < end; p++) {
        if (*p == '"') {
            quoted = !quoted;
        } else if (!quoted && p + 6 <= end && memcmp(p, "poison", 6) == 0 && p > line &&
                   (p[-1] == ' ' || p[-1] == '<' || p[-1] == '(' || p[-1] == '[' ||
                    p[-1] == '{') &&
                   (p + 6 == end || is_delimiter(p[6]))) {
            if (put(b, copied, (size_t)(p - copied)) < 0 || puts_(b, "undef") < 0) {
                return -1;
            }
            copied = p + 6;
            p += 5;
        }
    }
    return put(b, copied, (size_t)(end - copied));
}

/* An instruction line: atomicrmw/cmpxchg lose `, align N`. */
static int put_instruction_line(text_buf *b, const char *line, const char *end) {
    if (!contains(line, end, " atomicrmw ") && !contains(line, end, " cmpxchg ")) {
        return put_without_poison(b, line, end);
    }
    const char *a = NULL;
    for (const char *p = line; p + 8 <= end; p++) {
        if (memcmp(p, ", align ", 8) == 0 && p + 8 < end && p[8] >= '0' && p[8] <= '9') {
            a = p;
            break;
        }
    }
    if (a == NULL) {
        return put_without_poison(b, line, end);
    }
    const char *after = a + 8;
    while (after < end && *after >= '0' && *after <= '9') {
        after++;
    }
    if (put_without_poison(b, line, a) < 0) {
        return -1;
    }
    return put_without_poison(b, after, end);
}

PyObject *cj_nvvm_text_for_llvm7(const char *ir, size_t len) {
    text_buf b = {NULL, 0, 0};
    const char *p = ir, *stop = ir + len;
    while (p < stop) {
        const char *nl = memchr(p, '\n', (size_t)(stop - p));
        const char *end = nl ? nl : stop;
        int rc = p[0] == '!' ? put_metadata_line(&b, p, end)
                 : p[0] == ' ' ? put_instruction_line(&b, p, end)
                 : p[0] == '@' ? put_without_poison(&b, p, end)
                               : put(&b, p, (size_t)(end - p));
        if (rc < 0 || (nl && put(&b, "\n", 1) < 0)) {
            PyMem_Free(b.data);
            return NULL;
        }
        p = nl ? nl + 1 : stop;
    }
    PyObject *text = PyUnicode_DecodeUTF8(b.data ? b.data : "", (Py_ssize_t)b.len, "strict");
    PyMem_Free(b.data);
    return text;
}
