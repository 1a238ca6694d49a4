/* irbuilder_ops.c: the methods of _core.IRBuilder (irbuilder_py.c), named and behaving as
 * llvmlite.ir.IRBuilder's: arithmetic, comparisons, casts, memory, aggregates, calls and
 * blocks (its context managers if_then / if_else are Python, cujit.llvm.ir). Operands are
 * Values of the same builder or ir.Constants; their types are checked here, as LLVM's C API
 * would build invalid IR. Keyword arguments (name=, flags=, inbounds=, align=) are accepted
 * and ignored: they change names or hints only. Also the private helpers cujit's Python layer
 * builds on: _cast (the core's conversion rule), _call_c (CPython's C API for pythonapi),
 * _const_object and _cstring. */
#include "lower/lower_extension.h"

#include <string.h>

#define METHOD_ARGS PyObject *self, PyObject *args, PyObject *kwargs

static PyObject *wrap(PyObject *self, LLVMValueRef v) {
    return v ? cj_irvalue_new(self, v) : NULL;
}

/* Parses `n` operands (Values or Constants) from args[first..]. */
static int operands(PyObject *self, PyObject *args, int first, int n, LLVMValueRef *out,
                    const char *what) {
    if (cj_irb_check(self) < 0) {
        return -1;
    }
    if (PyTuple_GET_SIZE(args) < first + n) {
        PyErr_Format(PyExc_TypeError, "IRBuilder.%s takes %d operands", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (cj_irvalue_get(self, PyTuple_GET_ITEM(args, first + i), &out[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

static int is_int(LLVMValueRef v) { return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMIntegerTypeKind; }
static int is_fp(LLVMValueRef v) {
    LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(v));
    return k == LLVMHalfTypeKind || k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind;
}
static int is_ptr(LLVMValueRef v) { return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind; }

static PyObject *type_error(const char *what, const char *why) {
    PyErr_Format(PyExc_TypeError, "IRBuilder.%s: %s", what, why);
    return NULL;
}

/* ---- arithmetic ---- */

typedef LLVMValueRef (*binop_fn)(LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *);

static PyObject *binop(PyObject *self, PyObject *args, binop_fn f, int fp, const char *what) {
    LLVMValueRef v[2];
    if (operands(self, args, 0, 2, v, what) < 0) {
        return NULL;
    }
    if (LLVMTypeOf(v[0]) != LLVMTypeOf(v[1])) {
        return type_error(what, "operands of different types");
    }
    if (fp ? !is_fp(v[0]) : !is_int(v[0])) {
        return type_error(what, fp ? "operands must be floating point" : "operands must be "
                                                                          "integers");
    }
    return wrap(self, f(cj_irb_builder(self), v[0], v[1], ""));
}

#define BINOP(name, fn, fp) \
    static PyObject *m_##name(METHOD_ARGS) { return binop(self, args, fn, fp, #name); }
BINOP(add, LLVMBuildAdd, 0)
BINOP(sub, LLVMBuildSub, 0)
BINOP(mul, LLVMBuildMul, 0)
BINOP(sdiv, LLVMBuildSDiv, 0)
BINOP(udiv, LLVMBuildUDiv, 0)
BINOP(srem, LLVMBuildSRem, 0)
BINOP(urem, LLVMBuildURem, 0)
BINOP(and_, LLVMBuildAnd, 0)
BINOP(or_, LLVMBuildOr, 0)
BINOP(xor, LLVMBuildXor, 0)
BINOP(shl, LLVMBuildShl, 0)
BINOP(lshr, LLVMBuildLShr, 0)
BINOP(ashr, LLVMBuildAShr, 0)
BINOP(fadd, LLVMBuildFAdd, 1)
BINOP(fsub, LLVMBuildFSub, 1)
BINOP(fmul, LLVMBuildFMul, 1)
BINOP(fdiv, LLVMBuildFDiv, 1)
BINOP(frem, LLVMBuildFRem, 1)

static PyObject *unop(PyObject *self, PyObject *args, int kind, const char *what) {
    LLVMValueRef v;
    if (operands(self, args, 0, 1, &v, what) < 0) {
        return NULL;
    }
    if (kind == 2 ? !is_fp(v) : !is_int(v)) {
        return type_error(what, kind == 2 ? "operand must be floating point"
                                          : "operand must be an integer");
    }
    LLVMBuilderRef b = cj_irb_builder(self);
    return wrap(self, kind == 0 ? LLVMBuildNeg(b, v, "") : kind == 1 ? LLVMBuildNot(b, v, "")
                                                                     : LLVMBuildFNeg(b, v, ""));
}

static PyObject *m_neg(METHOD_ARGS) { return unop(self, args, 0, "neg"); }
static PyObject *m_not_(METHOD_ARGS) { return unop(self, args, 1, "not_"); }
static PyObject *m_fneg(METHOD_ARGS) { return unop(self, args, 2, "fneg"); }

/* ---- comparisons ---- */

static int op_index(PyObject *op, const char *const *names) {
    const char *s = PyUnicode_Check(op) ? PyUnicode_AsUTF8(op) : NULL;
    for (int i = 0; s != NULL && names[i] != NULL; i++) {
        if (strcmp(s, names[i]) == 0) {
            return i;
        }
    }
    PyErr_Clear();
    PyErr_Format(PyExc_ValueError, "unknown comparison %R", op);
    return -1;
}

static const char *const cmp_names[] = {"==", "!=", "<", "<=", ">", ">=", "ord", "uno", NULL};

static PyObject *icmp(PyObject *self, PyObject *args, int is_signed, const char *what) {
    LLVMValueRef v[2];
    int op = PyTuple_GET_SIZE(args) > 0 ? op_index(PyTuple_GET_ITEM(args, 0), cmp_names) : -1;
    if (op < 0 || op > 5 || operands(self, args, 1, 2, v, what) < 0) {
        return op > 5 ? type_error(what, "takes ==, !=, <, <=, >, >=") : NULL;
    }
    if (LLVMTypeOf(v[0]) != LLVMTypeOf(v[1]) || !(is_int(v[0]) || is_ptr(v[0]))) {
        return type_error(what, "operands must be integers (or pointers) of one type");
    }
    static const LLVMIntPredicate s[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE,
                                         LLVMIntSGT, LLVMIntSGE};
    static const LLVMIntPredicate u[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE,
                                         LLVMIntUGT, LLVMIntUGE};
    return wrap(self, LLVMBuildICmp(cj_irb_builder(self), is_signed ? s[op] : u[op], v[0],
                                    v[1], ""));
}

static PyObject *fcmp(PyObject *self, PyObject *args, int ordered, const char *what) {
    LLVMValueRef v[2];
    int op = PyTuple_GET_SIZE(args) > 0 ? op_index(PyTuple_GET_ITEM(args, 0), cmp_names) : -1;
    if (op < 0 || operands(self, args, 1, 2, v, what) < 0) {
        return NULL;
    }
    if (LLVMTypeOf(v[0]) != LLVMTypeOf(v[1]) || !is_fp(v[0])) {
        return type_error(what, "operands must be floating point of one type");
    }
    static const LLVMRealPredicate o[] = {LLVMRealOEQ, LLVMRealONE, LLVMRealOLT, LLVMRealOLE,
                                          LLVMRealOGT, LLVMRealOGE, LLVMRealORD, LLVMRealUNO};
    static const LLVMRealPredicate un[] = {LLVMRealUEQ, LLVMRealUNE, LLVMRealULT, LLVMRealULE,
                                           LLVMRealUGT, LLVMRealUGE, LLVMRealORD, LLVMRealUNO};
    return wrap(self, LLVMBuildFCmp(cj_irb_builder(self), ordered ? o[op] : un[op], v[0], v[1],
                                    ""));
}

static PyObject *m_icmp_signed(METHOD_ARGS) { return icmp(self, args, 1, "icmp_signed"); }
static PyObject *m_icmp_unsigned(METHOD_ARGS) { return icmp(self, args, 0, "icmp_unsigned"); }
static PyObject *m_fcmp_ordered(METHOD_ARGS) { return fcmp(self, args, 1, "fcmp_ordered"); }
static PyObject *m_fcmp_unordered(METHOD_ARGS) { return fcmp(self, args, 0, "fcmp_unordered"); }

static PyObject *m_select(METHOD_ARGS) {
    LLVMValueRef v[3];
    if (operands(self, args, 0, 3, v, "select") < 0) {
        return NULL;
    }
    if (LLVMTypeOf(v[0]) != LLVMInt1TypeInContext(LLVMGetTypeContext(LLVMTypeOf(v[0]))) ||
        LLVMTypeOf(v[1]) != LLVMTypeOf(v[2])) {
        return type_error("select", "takes an i1 condition and two values of one type");
    }
    return wrap(self, LLVMBuildSelect(cj_irb_builder(self), v[0], v[1], v[2], ""));
}

/* ---- casts ---- */

typedef LLVMValueRef (*cast_fn)(LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *);
enum { C_INT = 1, C_FP = 2, C_PTR = 4, C_ANY = 8 };

static int kind_of(LLVMTypeRef t) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    return k == LLVMIntegerTypeKind ? C_INT
           : k == LLVMPointerTypeKind ? C_PTR
           : (k == LLVMHalfTypeKind || k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind)
               ? C_FP : 0;
}

/* Bits of a scalar type (0 for aggregates and pointers). */
static unsigned scalar_bits(LLVMTypeRef t) {
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
        return LLVMGetIntTypeWidth(t);
    case LLVMHalfTypeKind:
        return 16;
    case LLVMFloatTypeKind:
        return 32;
    case LLVMDoubleTypeKind:
        return 64;
    default:
        return 0;
    }
}

/* Whether the widths suit the cast (LLVM folds constants without checking): narrowing for
 * trunc/fptrunc (sign -1), widening for zext/sext/fpext (+1), equal for bitcast (2). */
static int widths_fit(LLVMTypeRef from, LLVMTypeRef to, int sign) {
    unsigned a = scalar_bits(from), b = scalar_bits(to);
    if (sign == 2) {
        int ptrs = (LLVMGetTypeKind(from) == LLVMPointerTypeKind) +
                   (LLVMGetTypeKind(to) == LLVMPointerTypeKind);
        return ptrs == 2 || (ptrs == 0 && a != 0 && a == b);
    }
    return sign == 0 || (sign < 0 ? b < a : b > a);
}

static PyObject *cast(PyObject *self, PyObject *args, cast_fn f, int from, int to,
                      const char *what, int sign) {
    LLVMValueRef v;
    if (operands(self, args, 0, 1, &v, what) < 0) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(args) < 2) {
        return type_error(what, "takes a value and an ir type");
    }
    LLVMTypeRef t = cj_irb_type(self, PyTuple_GET_ITEM(args, 1));
    if (t == NULL) {
        return NULL;
    }
    int fk = kind_of(LLVMTypeOf(v)), tk = kind_of(t);
    if (!(from & (fk | C_ANY)) || !(to & (tk | C_ANY)) ||
        ((from & C_ANY) && (fk == 0) != (tk == 0))) {
        return type_error(what, "the value's type or the target type is of the wrong kind");
    }
    if (!widths_fit(LLVMTypeOf(v), t, sign)) {
        return type_error(what, sign == 2 ? "takes types of the same size (or two pointers)"
                                          : "the target type's width does not suit the cast");
    }
    return wrap(self, f(cj_irb_builder(self), v, t, ""));
}

#define CAST(name, fn, from, to, sign) \
    static PyObject *m_##name(METHOD_ARGS) { return cast(self, args, fn, from, to, #name, sign); }
CAST(trunc, LLVMBuildTrunc, C_INT, C_INT, -1)
CAST(zext, LLVMBuildZExt, C_INT, C_INT, 1)
CAST(sext, LLVMBuildSExt, C_INT, C_INT, 1)
CAST(fptrunc, LLVMBuildFPTrunc, C_FP, C_FP, -1)
CAST(fpext, LLVMBuildFPExt, C_FP, C_FP, 1)
CAST(sitofp, LLVMBuildSIToFP, C_INT, C_FP, 0)
CAST(uitofp, LLVMBuildUIToFP, C_INT, C_FP, 0)
CAST(fptosi, LLVMBuildFPToSI, C_FP, C_INT, 0)
CAST(fptoui, LLVMBuildFPToUI, C_FP, C_INT, 0)
CAST(inttoptr, LLVMBuildIntToPtr, C_INT, C_PTR, 0)
CAST(ptrtoint, LLVMBuildPtrToInt, C_PTR, C_INT, 0)
CAST(bitcast, LLVMBuildBitCast, C_ANY, C_ANY, 2)

/* ---- memory ---- */

static PyObject *m_alloca(METHOD_ARGS) {
    if (cj_irb_check(self) < 0) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(args) != 1) {
        return type_error("alloca", "takes an ir type (size= is not supported)");
    }
    LLVMTypeRef t = cj_irb_type(self, PyTuple_GET_ITEM(args, 0));
    if (t == NULL) {
        return NULL;
    }
    if (!LLVMTypeIsSized(t)) {
        return type_error("alloca", "takes a sized type (not void or a function)");
    }
    cj_lower *L = cj_irb_lower(self); /* in a function: at its entry, so loops reuse it */
    return wrap(self, L ? cj_entry_alloca(L, t, "ext") : LLVMBuildAlloca(cj_irb_builder(self),
                                                                          t, "ext"));
}

static PyObject *m_load(METHOD_ARGS) {
    LLVMValueRef p;
    if (operands(self, args, 0, 1, &p, "load") < 0) {
        return NULL;
    }
    if (!is_ptr(p) || !LLVMTypeIsSized(LLVMGetElementType(LLVMTypeOf(p)))) {
        return type_error("load", "takes a pointer to a sized type");
    }
    LLVMTypeRef t = LLVMGetElementType(LLVMTypeOf(p));
    return wrap(self, LLVMBuildLoad2(cj_irb_builder(self), t, p, ""));
}

static PyObject *m_store(METHOD_ARGS) {
    LLVMValueRef v[2];
    if (operands(self, args, 0, 2, v, "store") < 0) {
        return NULL;
    }
    if (!is_ptr(v[1]) || LLVMGetElementType(LLVMTypeOf(v[1])) != LLVMTypeOf(v[0])) {
        return type_error("store", "takes a value and a pointer to its type");
    }
    return wrap(self, LLVMBuildStore(cj_irb_builder(self), v[0], v[1]));
}

/* The index list `seq` (Values or Constants, integers) into out[0..*n). */
static int index_list(PyObject *self, PyObject *seq, LLVMValueRef *out, int *n) {
    PyObject *fast = PySequence_Fast(seq, "gep takes a list of indices");
    if (fast == NULL) {
        return -1;
    }
    *n = (int)PySequence_Fast_GET_SIZE(fast);
    int rc = *n >= 1 && *n <= 16 ? 0 : -1;
    if (rc < 0) {
        PyErr_SetString(PyExc_ValueError, "IRBuilder.gep takes 1 to 16 indices");
    }
    for (int i = 0; rc == 0 && i < *n; i++) {
        rc = cj_irvalue_get(self, PySequence_Fast_GET_ITEM(fast, i), &out[i]);
        if (rc == 0 && !is_int(out[i])) {
            PyErr_SetString(PyExc_TypeError, "IRBuilder.gep: indices must be integers");
            rc = -1;
        }
    }
    Py_DECREF(fast);
    return rc;
}

static PyObject *m_gep(METHOD_ARGS) {
    LLVMValueRef p, idx[16];
    int n;
    if (operands(self, args, 0, 1, &p, "gep") < 0) {
        return NULL;
    }
    if (!is_ptr(p) || PyTuple_GET_SIZE(args) < 2 ||
        !LLVMTypeIsSized(LLVMGetElementType(LLVMTypeOf(p)))) {
        return type_error("gep", "takes a pointer (to a sized type) and a list of indices");
    }
    if (index_list(self, PyTuple_GET_ITEM(args, 1), idx, &n) < 0) {
        return NULL;
    }
    LLVMTypeRef t = LLVMGetElementType(LLVMTypeOf(p));
    for (int i = 1; i < n; i++) { /* walk the type: struct indices must be constants */
        LLVMTypeKind k = LLVMGetTypeKind(t);
        if (k == LLVMStructTypeKind) {
            unsigned long long at = LLVMIsAConstantInt(idx[i]) ? LLVMConstIntGetZExtValue(idx[i])
                                                               : (unsigned long long)-1;
            if (at >= LLVMCountStructElementTypes(t) ||
                LLVMGetIntTypeWidth(LLVMTypeOf(idx[i])) != 32) {
                return type_error("gep", "a struct index must be an in-range i32 constant");
            }
            t = LLVMStructGetTypeAtIndex(t, (unsigned)at);
        } else if (k == LLVMArrayTypeKind) {
            t = LLVMGetElementType(t);
        } else {
            return type_error("gep", "more indices than the pointee type has levels");
        }
    }
    LLVMTypeRef pointee = LLVMGetElementType(LLVMTypeOf(p));
    return wrap(self, LLVMBuildGEP2(cj_irb_builder(self), pointee, p, idx, (unsigned)n, ""));
}

/* ---- aggregates ---- */

/* The member type of aggregate `t` at `index`, or NULL + exception. */
static LLVMTypeRef member_at(LLVMTypeRef t, long index, const char *what) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    long n = k == LLVMStructTypeKind ? (long)LLVMCountStructElementTypes(t)
             : k == LLVMArrayTypeKind ? (long)LLVMGetArrayLength(t) : -1;
    if (index < 0 || index >= n) {
        type_error(what, n < 0 ? "takes a struct or array value" : "index out of range");
        return NULL;
    }
    return k == LLVMStructTypeKind ? LLVMStructGetTypeAtIndex(t, (unsigned)index)
                                   : LLVMGetElementType(t);
}

static long one_index(PyObject *args, int at) {
    PyObject *i = PyTuple_GET_SIZE(args) > at ? PyTuple_GET_ITEM(args, at) : NULL;
    if (i != NULL && PyList_Check(i) && PyList_GET_SIZE(i) == 1) {
        i = PyList_GET_ITEM(i, 0); /* llvmlite takes [i] too */
    }
    long r = i != NULL && PyLong_Check(i) ? PyLong_AsLong(i) : -1;
    PyErr_Clear();
    return r;
}

static PyObject *m_extract_value(METHOD_ARGS) {
    LLVMValueRef agg;
    if (operands(self, args, 0, 1, &agg, "extract_value") < 0) {
        return NULL;
    }
    long i = one_index(args, 1);
    if (member_at(LLVMTypeOf(agg), i, "extract_value") == NULL) {
        return NULL;
    }
    return wrap(self, LLVMBuildExtractValue(cj_irb_builder(self), agg, (unsigned)i, ""));
}

static PyObject *m_insert_value(METHOD_ARGS) {
    LLVMValueRef v[2];
    if (operands(self, args, 0, 2, v, "insert_value") < 0) {
        return NULL;
    }
    long i = one_index(args, 2);
    LLVMTypeRef m = member_at(LLVMTypeOf(v[0]), i, "insert_value");
    if (m == NULL) {
        return NULL;
    }
    if (m != LLVMTypeOf(v[1])) {
        return type_error("insert_value", "the value's type is not the member's");
    }
    return wrap(self, LLVMBuildInsertValue(cj_irb_builder(self), v[0], v[1], (unsigned)i, ""));
}

/* ---- calls ---- */

/* Calls `fn` (a function, or a pointer to one, of type `ft`) with the list `arglist`. */
static PyObject *call_checked(PyObject *self, LLVMValueRef fn, LLVMTypeRef ft,
                              PyObject *arglist) {
    PyObject *fast = PySequence_Fast(arglist, "call takes a list of arguments");
    if (fast == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    unsigned np = LLVMCountParamTypes(ft);
    LLVMTypeRef params[64];
    LLVMValueRef av[64];
    int ok = n <= 64 && np <= 64 && (n == np || (LLVMIsFunctionVarArg(ft) && n >= np));
    if (ok) {
        LLVMGetParamTypes(ft, params);
    }
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        ok = cj_irvalue_get(self, PySequence_Fast_GET_ITEM(fast, i), &av[i]) == 0;
        if (ok && i < np && LLVMTypeOf(av[i]) != params[i]) {
            PyErr_Format(PyExc_TypeError, "IRBuilder.call: argument %zd has the wrong type", i);
            ok = 0;
        }
    }
    Py_DECREF(fast);
    if (!ok) {
        return PyErr_Occurred() ? NULL : type_error("call", "wrong number of arguments");
    }
    LLVMValueRef r = LLVMBuildCall2(cj_irb_builder(self), ft, fn, av, (unsigned)n, "");
    return wrap(self, r);
}

static PyObject *m_call(METHOD_ARGS) {
    LLVMValueRef fn;
    if (operands(self, args, 0, 1, &fn, "call") < 0) {
        return NULL;
    }
    LLVMTypeRef t = LLVMTypeOf(fn);
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) {
        t = LLVMGetElementType(t);
    }
    if (LLVMGetTypeKind(t) != LLVMFunctionTypeKind || PyTuple_GET_SIZE(args) < 2) {
        return type_error("call", "takes a function and a list of arguments");
    }
    return call_checked(self, fn, t, PyTuple_GET_ITEM(args, 1));
}

/* CPython's C API functions pythonapi may call: name, address, signature (return, then
 * arguments: o PyObject*, s char*, d double, l 64-bit integer, i int, v void, . varargs). */
typedef struct { const char *name; void *addr; const char *sig; } c_api_entry;
static const c_api_entry c_api[] = {
    {"PyObject_GetAttrString", (void *)PyObject_GetAttrString, "oos"},
    {"PyObject_SetAttrString", (void *)PyObject_SetAttrString, "ioso"},
    {"PyFloat_AsDouble", (void *)PyFloat_AsDouble, "do"},
    {"PyFloat_FromDouble", (void *)PyFloat_FromDouble, "od"},
    {"PyLong_AsLongLong", (void *)PyLong_AsLongLong, "lo"},
    {"PyLong_FromLongLong", (void *)PyLong_FromLongLong, "ol"},
    {"PyLong_AsUnsignedLongLong", (void *)PyLong_AsUnsignedLongLong, "lo"},
    {"PyLong_FromUnsignedLongLong", (void *)PyLong_FromUnsignedLongLong, "ol"},
    {"PyBool_FromLong", (void *)PyBool_FromLong, "ol"},
    {"PyObject_IsTrue", (void *)PyObject_IsTrue, "io"},
    {"PyNumber_Float", (void *)PyNumber_Float, "oo"},
    {"PyNumber_Long", (void *)PyNumber_Long, "oo"},
    {"PyComplex_RealAsDouble", (void *)PyComplex_RealAsDouble, "do"},
    {"PyComplex_ImagAsDouble", (void *)PyComplex_ImagAsDouble, "do"},
    {"PyComplex_FromDoubles", (void *)PyComplex_FromDoubles, "odd"},
    {"Py_IncRef", (void *)Py_IncRef, "vo"},
    {"Py_DecRef", (void *)Py_DecRef, "vo"},
    {"PyObject_CallFunctionObjArgs", (void *)PyObject_CallFunctionObjArgs, "oo."},
    {"PyErr_Occurred", (void *)PyErr_Occurred, "o"},
    {"PyErr_SetString", (void *)PyErr_SetString, "voo"},
    {NULL, NULL, NULL},
};

static LLVMTypeRef sig_type(LLVMContextRef ctx, char c) {
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    return c == 'd' ? LLVMDoubleTypeInContext(ctx) : c == 'l' ? LLVMInt64TypeInContext(ctx)
           : c == 'i' ? LLVMInt32TypeInContext(ctx) : c == 'v' ? LLVMVoidTypeInContext(ctx)
           : i8p;
}

static PyObject *m_call_c(METHOD_ARGS) {
    const char *name;
    PyObject *arglist;
    if (cj_irb_check(self) < 0 || !PyArg_ParseTuple(args, "sO:_call_c", &name, &arglist)) {
        return NULL;
    }
    const c_api_entry *e = c_api;
    while (e->name != NULL && strcmp(e->name, name) != 0) {
        e++;
    }
    if (e->name == NULL) {
        PyErr_Format(PyExc_NotImplementedError, "pythonapi: %s is not callable from cujit's "
                     "compiled code", name);
        return NULL;
    }
    LLVMContextRef ctx = LLVMGetModuleContext(cj_irb_module(self));
    LLVMTypeRef params[8];
    int n = 0, vararg = 0;
    for (const char *c = e->sig + 1; *c; c++) {
        if (*c == '.') {
            vararg = 1;
        } else {
            params[n++] = sig_type(ctx, *c);
        }
    }
    LLVMTypeRef ft = LLVMFunctionType(sig_type(ctx, e->sig[0]), params, (unsigned)n, vararg);
    LLVMValueRef addr = LLVMConstInt(LLVMInt64TypeInContext(ctx),
                                     (unsigned long long)(uintptr_t)e->addr, 0);
    return call_checked(self, LLVMConstIntToPtr(addr, LLVMPointerType(ft, 0)), ft, arglist);
}

/* An i8* constant pointing at `obj`; the caller (pythonapi) keeps it alive. */
static PyObject *m_const_object(METHOD_ARGS) {
    if (cj_irb_check(self) < 0 || PyTuple_GET_SIZE(args) != 1) {
        return PyErr_Occurred() ? NULL : type_error("_const_object", "takes one object");
    }
    LLVMContextRef ctx = LLVMGetModuleContext(cj_irb_module(self));
    LLVMValueRef addr = LLVMConstInt(LLVMInt64TypeInContext(ctx),
                                     (unsigned long long)(uintptr_t)PyTuple_GET_ITEM(args, 0),
                                     0);
    return wrap(self, LLVMConstIntToPtr(addr, LLVMPointerType(LLVMInt8TypeInContext(ctx), 0)));
}

static PyObject *m_cstring(METHOD_ARGS) {
    const char *s;
    if (cj_irb_check(self) < 0 || !PyArg_ParseTuple(args, "s:_cstring", &s)) {
        return NULL;
    }
    return wrap(self, LLVMBuildGlobalStringPtr(cj_irb_builder(self), s, "ext_str"));
}

/* context.cast: the core's conversion rule (lower_types.c) between two cujit types. */
static PyObject *m_cast_types(METHOD_ARGS) {
    LLVMValueRef v;
    if (operands(self, args, 0, 1, &v, "_cast") < 0 || PyTuple_GET_SIZE(args) != 3) {
        return PyErr_Occurred() ? NULL : type_error("_cast", "takes (value, fromty, toty)");
    }
    const cj_type *from = cj_type_from_py_checked(PyTuple_GET_ITEM(args, 1), "context.cast");
    const cj_type *to = from ? cj_type_from_py_checked(PyTuple_GET_ITEM(args, 2),
                                                       "context.cast") : NULL;
    cj_lower *L = cj_irb_lower(self);
    if (to == NULL) {
        return NULL;
    }
    if (L == NULL || LLVMTypeOf(v) != cj_llvm_type(L->ctx, from)) {
        return type_error("_cast", L ? "the value is not of the `fromty` type"
                                     : "casts are available while lowering a function");
    }
    return wrap(self, cj_cast(L, v, from, to));
}

/* phi(type): a PHI node at the builder's position (the start of a block, which LLVM's
 * verifier checks); its incoming values are added with value.add_incoming(v, block). */
static PyObject *m_phi(METHOD_ARGS) {
    if (cj_irb_check(self) < 0) {
        return NULL;
    }
    LLVMTypeRef t = PyTuple_GET_SIZE(args) >= 1 ? cj_irb_type(self, PyTuple_GET_ITEM(args, 0))
                                                : NULL;
    if (t == NULL || !LLVMTypeIsSized(t)) {
        return PyErr_Occurred() ? NULL : type_error("phi", "takes a sized ir type");
    }
    return wrap(self, LLVMBuildPhi(cj_irb_builder(self), t, ""));
}

/* _declare(name, fnty): the function `name` of the module (declared with fnty when new):
 * LLVM's intrinsics (llvm.*) and, in CUDA code, libdevice's (__nv_*), which both targets
 * resolve; other symbols are refused (the CPU JIT would not find them). */
static PyObject *m_declare(METHOD_ARGS) {
    const char *name;
    PyObject *fnty;
    if (cj_irb_check(self) < 0 || !PyArg_ParseTuple(args, "sO:_declare", &name, &fnty)) {
        return NULL;
    }
    cj_lower *L = cj_irb_lower(self);
    int cuda = L != NULL && L->env->target == CJ_TARGET_CUDA;
    if (strncmp(name, "llvm.", 5) != 0 && !(cuda && strncmp(name, "__nv_", 5) == 0)) {
        PyErr_Format(PyExc_NotImplementedError, "cujit: declaring %s is not supported (LLVM "
                     "intrinsics llvm.*, and libdevice's __nv_* in CUDA code, are)", name);
        return NULL;
    }
    LLVMTypeRef ft = cj_irb_type(self, fnty);
    if (ft == NULL || LLVMGetTypeKind(ft) != LLVMFunctionTypeKind) {
        return ft == NULL ? NULL : type_error("_declare", "takes an ir.FunctionType");
    }
    LLVMModuleRef mod = cj_irb_module(self);
    LLVMValueRef fn = LLVMGetNamedFunction(mod, name);
    if (fn != NULL && LLVMGetElementType(LLVMTypeOf(fn)) != ft) {
        return type_error("_declare", "the function exists with another type");
    }
    return wrap(self, fn != NULL ? fn : LLVMAddFunction(mod, name, ft));
}

/* ---- blocks ---- */

static PyObject *m_append_basic_block(METHOD_ARGS) {
    if (cj_irb_check(self) < 0) {
        return NULL;
    }
    LLVMValueRef fn = cj_irb_function(self);
    LLVMContextRef ctx = LLVMGetModuleContext(cj_irb_module(self));
    return cj_irb_block(self, LLVMAppendBasicBlockInContext(ctx, fn, "ext"));
}

static PyObject *m_position_at_end(METHOD_ARGS) {
    LLVMBasicBlockRef bb = PyTuple_GET_SIZE(args) == 1
                               ? cj_irb_get_block(self, PyTuple_GET_ITEM(args, 0)) : NULL;
    if (bb == NULL) {
        return PyErr_Occurred() ? NULL : type_error("position_at_end", "takes a block");
    }
    LLVMPositionBuilderAtEnd(cj_irb_builder(self), bb);
    Py_RETURN_NONE;
}

static PyObject *m_branch(METHOD_ARGS) {
    LLVMBasicBlockRef bb = PyTuple_GET_SIZE(args) == 1
                               ? cj_irb_get_block(self, PyTuple_GET_ITEM(args, 0)) : NULL;
    if (bb == NULL) {
        return PyErr_Occurred() ? NULL : type_error("branch", "takes a block");
    }
    return wrap(self, LLVMBuildBr(cj_irb_builder(self), bb));
}

static PyObject *m_cbranch(METHOD_ARGS) {
    LLVMValueRef cond;
    if (operands(self, args, 0, 1, &cond, "cbranch") < 0 || PyTuple_GET_SIZE(args) != 3) {
        return PyErr_Occurred() ? NULL : type_error("cbranch", "takes (cond, then, else)");
    }
    LLVMBasicBlockRef t = cj_irb_get_block(self, PyTuple_GET_ITEM(args, 1));
    LLVMBasicBlockRef e = t ? cj_irb_get_block(self, PyTuple_GET_ITEM(args, 2)) : NULL;
    if (e == NULL) {
        return NULL;
    }
    if (!is_int(cond) || LLVMGetIntTypeWidth(LLVMTypeOf(cond)) != 1) {
        return type_error("cbranch", "the condition must be an i1");
    }
    return wrap(self, LLVMBuildCondBr(cj_irb_builder(self), cond, t, e));
}

static PyObject *m_unreachable(METHOD_ARGS) {
    return cj_irb_check(self) < 0 ? NULL
                                  : wrap(self, LLVMBuildUnreachable(cj_irb_builder(self)));
}

static PyObject *get_basic_block(PyObject *self, void *closure) {
    return cj_irb_check(self) < 0
               ? NULL : cj_irb_block(self, LLVMGetInsertBlock(cj_irb_builder(self)));
}

#define M(name) {#name, (PyCFunction)(void (*)(void))m_##name, METH_VARARGS | METH_KEYWORDS, \
                  "llvmlite.ir.IRBuilder." #name}
PyMethodDef cj_irbuilder_methods[] = {
    M(add), M(sub), M(mul), M(sdiv), M(udiv), M(srem), M(urem), M(and_), M(or_), M(xor),
    M(shl), M(lshr), M(ashr), M(fadd), M(fsub), M(fmul), M(fdiv), M(frem), M(neg), M(not_),
    M(fneg), M(icmp_signed), M(icmp_unsigned), M(fcmp_ordered), M(fcmp_unordered), M(select),
    M(trunc), M(zext), M(sext), M(fptrunc), M(fpext), M(sitofp), M(uitofp), M(fptosi),
    M(fptoui), M(inttoptr), M(ptrtoint), M(bitcast), M(alloca), M(load), M(store), M(gep),
    M(extract_value), M(insert_value), M(call), M(append_basic_block), M(position_at_end),
    M(branch), M(cbranch), M(unreachable), M(phi),
    {"_declare", (PyCFunction)(void (*)(void))m_declare, METH_VARARGS | METH_KEYWORDS,
     "_declare(name, fnty): an LLVM intrinsic (or libdevice function in CUDA code)"},
    {"_call_c", (PyCFunction)(void (*)(void))m_call_c, METH_VARARGS | METH_KEYWORDS,
     "_call_c(name, args): a call of CPython's C API function `name` (pythonapi)"},
    {"_const_object", (PyCFunction)(void (*)(void))m_const_object, METH_VARARGS | METH_KEYWORDS,
     "_const_object(obj): an i8* constant at obj (kept alive by the caller)"},
    {"_cstring", (PyCFunction)(void (*)(void))m_cstring, METH_VARARGS | METH_KEYWORDS,
     "_cstring(s): an i8* to a constant C string"},
    {"_call_jitted", (PyCFunction)(void (*)(void))cj_irb_call_jitted,
     METH_VARARGS | METH_KEYWORDS,
     "_call_jitted(dispatcher, argtypes, args): context.compile_internal's call "
     "(irbuilder_calls.c)"},
    {"_cast", (PyCFunction)(void (*)(void))m_cast_types, METH_VARARGS | METH_KEYWORDS,
     "_cast(value, fromty, toty): the core's conversion between two cujit types"},
    {NULL},
};

PyGetSetDef cj_irbuilder_getset[] = {
    {"basic_block", get_basic_block, NULL, "the block being emitted into", NULL},
    {"block", get_basic_block, NULL, "the block being emitted into", NULL},
    {NULL},
};
