/* irbuilder_py.c: _core.IRBuilder and _core.IRValue, the builder and values a user's lowering
 * function (lower_builtin, lower_getattr, an intrinsic's codegen, box, unbox) works with:
 * llvmlite's IRBuilder method names and semantics over the LLVM C API, so cujit needs no
 * llvmlite. Types and constants are cujit.llvm.ir's Python objects, which carry a `_desc`
 * tuple ("i", bits) ("half",) ("float",) ("double",) ("void",) ("ptr", pointee)
 * ("struct", (members...)) ("array", elem, n) ("fn", ret, (args...), vararg); constants have
 * `_cj_const()` -> (type, value). A builder lives for one call of a user's function: closed
 * after it, its values refuse to be used (they point into a module being compiled).
 * Operands are checked before LLVM sees them (LLVM's C API does not check types). */
#include "lower/lower_extension.h"

#include <string.h>

typedef struct {
    PyObject_HEAD
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMValueRef fn;
    cj_lower *L; /* NULL in the CPU wrapper */
    int alive;
} irbuilder;

typedef struct {
    PyObject_HEAD
    PyObject *builder;       /* strong */
    LLVMValueRef v;          /* a value, or NULL for a block */
    LLVMBasicBlockRef bb;
} irvalue;

static PyTypeObject *BuilderType, *ValueType;
static PyObject *builder_class;  /* cujit.llvm.ir.IRBuilder (a subclass of _core.IRBuilder) */
static PyObject *type_from_desc; /* cujit.llvm.ir._type_from_desc */

/* ---- types ---- */

static LLVMTypeRef desc_type(LLVMContextRef ctx, PyObject *desc, int depth);

/* Whether `t` may be a member, an element or a parameter (LLVM asserts it, unchecked in
 * release builds): not void, not a function. */
static LLVMTypeRef member_type(LLVMTypeRef t) {
    LLVMTypeKind k = t ? LLVMGetTypeKind(t) : LLVMVoidTypeKind;
    if (t != NULL && (k == LLVMVoidTypeKind || k == LLVMFunctionTypeKind)) {
        PyErr_SetString(PyExc_TypeError, "ir type: void and function types cannot be members, "
                                         "elements or parameters (use a pointer)");
        return NULL;
    }
    return t;
}

static LLVMTypeRef desc_types(LLVMContextRef ctx, PyObject *seq, LLVMTypeRef *out, int max,
                              int *n, int depth) {
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) > max) {
        PyErr_SetString(PyExc_TypeError, "ir type: bad member list");
        return NULL;
    }
    *n = (int)PyTuple_GET_SIZE(seq);
    for (int i = 0; i < *n; i++) {
        if ((out[i] = member_type(desc_type(ctx, PyTuple_GET_ITEM(seq, i), depth + 1))) ==
            NULL) {
            return NULL;
        }
    }
    return LLVMVoidTypeInContext(ctx); /* any non-NULL: success */
}

static LLVMTypeRef desc_type(LLVMContextRef ctx, PyObject *desc, int depth) {
    const char *tag;
    if (depth > 32 || !PyTuple_Check(desc) || PyTuple_GET_SIZE(desc) < 1 ||
        (tag = PyUnicode_AsUTF8(PyTuple_GET_ITEM(desc, 0))) == NULL) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "not an ir type");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(desc);
    PyObject *a1 = n > 1 ? PyTuple_GET_ITEM(desc, 1) : NULL;
    LLVMTypeRef members[64];
    int count;
    if (strcmp(tag, "i") == 0 && a1 != NULL) {
        long bits = PyLong_AsLong(a1);
        if (bits < 1 || bits > 128) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "ir.IntType: width must be 1 to 128");
            return NULL;
        }
        return LLVMIntTypeInContext(ctx, (unsigned)bits);
    }
    if (strcmp(tag, "half") == 0) return LLVMHalfTypeInContext(ctx);
    if (strcmp(tag, "float") == 0) return LLVMFloatTypeInContext(ctx);
    if (strcmp(tag, "double") == 0) return LLVMDoubleTypeInContext(ctx);
    if (strcmp(tag, "void") == 0) return LLVMVoidTypeInContext(ctx);
    if (strcmp(tag, "ptr") == 0 && a1 != NULL) {
        LLVMTypeRef p = desc_type(ctx, a1, depth + 1);
        if (p != NULL && LLVMGetTypeKind(p) == LLVMVoidTypeKind) {
            PyErr_SetString(PyExc_TypeError, "ir.PointerType: no pointer to void (use i8*)");
            return NULL;
        }
        return p ? LLVMPointerType(p, 0) : NULL;
    }
    if (strcmp(tag, "struct") == 0 && a1 != NULL) {
        return desc_types(ctx, a1, members, 64, &count, depth)
                   ? LLVMStructTypeInContext(ctx, members, (unsigned)count, 0) : NULL;
    }
    if (strcmp(tag, "array") == 0 && n == 3) {
        LLVMTypeRef e = member_type(desc_type(ctx, a1, depth + 1));
        long count_l = PyLong_AsLong(PyTuple_GET_ITEM(desc, 2));
        if (e == NULL || count_l < 0 || count_l > (1L << 24)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "ir.ArrayType: bad element type or count");
            return NULL;
        }
        return LLVMArrayType(e, (unsigned)count_l);
    }
    if (strcmp(tag, "fn") == 0 && n == 4) {
        LLVMTypeRef r = desc_type(ctx, a1, depth + 1);
        return r && desc_types(ctx, PyTuple_GET_ITEM(desc, 2), members, 64, &count, depth)
                   ? LLVMFunctionType(r, members, (unsigned)count,
                                      PyObject_IsTrue(PyTuple_GET_ITEM(desc, 3)) == 1)
                   : NULL;
    }
    PyErr_Format(PyExc_TypeError, "unknown ir type %R", desc);
    return NULL;
}

/* The LLVM type of a cujit.llvm.ir type object. */
static LLVMTypeRef ir_type(irbuilder *B, PyObject *obj) {
    PyObject *desc = PyObject_GetAttrString(obj, "_desc");
    if (desc == NULL) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "expected an ir type (cujit.llvm.ir), got %.200s",
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    LLVMTypeRef t = desc_type(B->ctx, desc, 0);
    Py_DECREF(desc);
    return t;
}

/* The _desc tuple of an LLVM type (new reference). */
static PyObject *type_desc(LLVMTypeRef t, int depth) {
    if (depth > 32) {
        return Py_BuildValue("(s)", "void");
    }
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
        return Py_BuildValue("(si)", "i", (int)LLVMGetIntTypeWidth(t));
    case LLVMHalfTypeKind:
        return Py_BuildValue("(s)", "half");
    case LLVMFloatTypeKind:
        return Py_BuildValue("(s)", "float");
    case LLVMDoubleTypeKind:
        return Py_BuildValue("(s)", "double");
    case LLVMPointerTypeKind:
        return Py_BuildValue("(sN)", "ptr", type_desc(LLVMGetElementType(t), depth + 1));
    case LLVMArrayTypeKind:
        return Py_BuildValue("(sNi)", "array", type_desc(LLVMGetElementType(t), depth + 1),
                             (int)LLVMGetArrayLength(t));
    case LLVMStructTypeKind: {
        unsigned n = LLVMCountStructElementTypes(t);
        PyObject *items = PyTuple_New(n);
        for (unsigned i = 0; items != NULL && i < n; i++) {
            PyObject *d = type_desc(LLVMStructGetTypeAtIndex(t, i), depth + 1);
            if (d == NULL) {
                Py_CLEAR(items);
                break;
            }
            PyTuple_SET_ITEM(items, i, d);
        }
        return items ? Py_BuildValue("(sN)", "struct", items) : NULL;
    }
    case LLVMFunctionTypeKind: {
        unsigned n = LLVMCountParamTypes(t);
        LLVMTypeRef params[64];
        PyObject *items = n <= 64 ? PyTuple_New(n) : NULL;
        if (items != NULL) {
            LLVMGetParamTypes(t, params);
        }
        for (unsigned i = 0; items != NULL && i < n; i++) {
            PyObject *d = type_desc(params[i], depth + 1);
            if (d == NULL) {
                Py_CLEAR(items);
                break;
            }
            PyTuple_SET_ITEM(items, i, d);
        }
        return items ? Py_BuildValue("(sNNO)", "fn", type_desc(LLVMGetReturnType(t), depth + 1),
                                     items, LLVMIsFunctionVarArg(t) ? Py_True : Py_False)
                     : (PyErr_Occurred() ? NULL : PyErr_NoMemory());
    }
    default:
        return Py_BuildValue("(s)", "void");
    }
}

/* The cujit.llvm.ir type object of an LLVM type (new reference). */
static PyObject *py_type(LLVMTypeRef t) {
    PyObject *desc = type_desc(t, 0);
    if (desc == NULL || type_from_desc == NULL) {
        if (desc != NULL) {
            PyErr_SetString(PyExc_RuntimeError, "cujit.llvm.ir did not register its types");
        }
        Py_XDECREF(desc);
        return NULL;
    }
    PyObject *r = PyObject_CallOneArg(type_from_desc, desc);
    Py_DECREF(desc);
    return r;
}

/* ---- values ---- */

static int check_alive(irbuilder *B) {
    if (!B->alive) {
        PyErr_SetString(PyExc_RuntimeError, "this IRBuilder (and its values) belongs to a "
                                            "lowering that has finished");
        return -1;
    }
    return 0;
}

PyObject *cj_irvalue_new(PyObject *builder, LLVMValueRef v) {
    irvalue *o = PyObject_New(irvalue, ValueType);
    if (o != NULL) {
        o->builder = Py_NewRef(builder);
        o->v = v;
        o->bb = NULL;
    }
    return (PyObject *)o;
}

static PyObject *block_new(PyObject *builder, LLVMBasicBlockRef bb) {
    irvalue *o = (irvalue *)cj_irvalue_new(builder, NULL);
    if (o != NULL) {
        o->bb = bb;
    }
    return (PyObject *)o;
}

static LLVMValueRef const_of(irbuilder *B, LLVMTypeRef t, PyObject *value, int depth);

static LLVMValueRef const_aggregate(irbuilder *B, LLVMTypeRef t, PyObject *value, int depth) {
    int is_struct = LLVMGetTypeKind(t) == LLVMStructTypeKind;
    unsigned n = is_struct ? LLVMCountStructElementTypes(t) : LLVMGetArrayLength(t);
    PyObject *seq = PySequence_Fast(value, "an aggregate ir.Constant takes a list");
    if (seq == NULL || (size_t)PySequence_Fast_GET_SIZE(seq) != n || n > 256) {
        if (seq != NULL) {
            PyErr_Format(PyExc_ValueError, "ir.Constant: %u members expected", n);
        }
        Py_XDECREF(seq);
        return NULL;
    }
    LLVMValueRef items[256];
    for (unsigned i = 0; i < n; i++) {
        LLVMTypeRef et = is_struct ? LLVMStructGetTypeAtIndex(t, i) : LLVMGetElementType(t);
        if ((items[i] = const_of(B, et, PySequence_Fast_GET_ITEM(seq, i), depth + 1)) == NULL) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    return is_struct ? LLVMConstStructInContext(B->ctx, items, n, 0)
                     : LLVMConstArray(LLVMGetElementType(t), items, n);
}

/* A constant of type `t` from a Python value (an int, float, bool, None: zero, a list for
 * aggregates, or an operand already). */
static LLVMValueRef const_of(irbuilder *B, LLVMTypeRef t, PyObject *value, int depth) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (depth > 32) {
        PyErr_SetString(PyExc_ValueError, "ir.Constant nests too deeply");
        return NULL;
    }
    if (!LLVMTypeIsSized(t)) {
        PyErr_SetString(PyExc_TypeError, "ir.Constant: no constants of void or function types");
        return NULL;
    }
    if (value == Py_None) {
        return LLVMConstNull(t);
    }
    if (PyObject_TypeCheck(value, ValueType) || PyObject_HasAttrString(value, "_cj_const")) {
        LLVMValueRef v;
        return cj_irvalue_get((PyObject *)B, value, &v) < 0 ? NULL : v;
    }
    if (k == LLVMIntegerTypeKind && PyLong_Check(value)) {
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(value, &overflow);
        unsigned long long u = overflow ? PyLong_AsUnsignedLongLongMask(value)
                                        : (unsigned long long)x;
        return PyErr_Occurred() ? NULL : LLVMConstInt(t, u, 0);
    }
    if ((k == LLVMHalfTypeKind || k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind) &&
        (PyFloat_Check(value) || PyLong_Check(value))) {
        double d = PyFloat_AsDouble(value);
        return PyErr_Occurred() ? NULL : LLVMConstReal(t, d);
    }
    if (k == LLVMStructTypeKind || k == LLVMArrayTypeKind) {
        return const_aggregate(B, t, value, depth);
    }
    PyErr_Format(PyExc_TypeError, "ir.Constant: cannot make a constant of this type from %R",
                 value);
    return NULL;
}

int cj_irvalue_get(PyObject *builder, PyObject *obj, LLVMValueRef *out) {
    irbuilder *B = (irbuilder *)builder;
    if (check_alive(B) < 0) {
        return -1;
    }
    if (PyObject_TypeCheck(obj, ValueType)) {
        irvalue *v = (irvalue *)obj;
        if (v->v == NULL || v->builder != builder) {
            PyErr_SetString(PyExc_TypeError, v->v == NULL ? "a block is not a value"
                                                          : "a value of another lowering");
            return -1;
        }
        *out = v->v;
        return 0;
    }
    PyObject *pair = PyObject_CallMethod(obj, "_cj_const", NULL);
    PyObject *ty, *value;
    if (pair == NULL) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "expected an IR value or ir.Constant, got %.200s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    LLVMTypeRef t = PyArg_ParseTuple(pair, "OO", &ty, &value) ? ir_type(B, ty) : NULL;
    *out = t ? const_of(B, t, value, 0) : NULL;
    Py_DECREF(pair);
    return *out ? 0 : -1;
}

static PyObject *value_type(PyObject *self, void *closure) {
    irvalue *v = (irvalue *)self;
    if (check_alive((irbuilder *)v->builder) < 0) {
        return NULL;
    }
    if (v->v == NULL) {
        PyErr_SetString(PyExc_AttributeError, "a block has no type");
        return NULL;
    }
    return py_type(LLVMTypeOf(v->v));
}

static PyObject *value_is_terminated(PyObject *self, void *closure) {
    irvalue *v = (irvalue *)self;
    if (check_alive((irbuilder *)v->builder) < 0) {
        return NULL;
    }
    return PyBool_FromLong(v->bb != NULL && LLVMGetBasicBlockTerminator(v->bb) != NULL);
}

/* value.add_incoming(v, block): an incoming value of a PHI node. */
static PyObject *value_add_incoming(PyObject *self, PyObject *args) {
    irvalue *phi = (irvalue *)self;
    PyObject *v_obj, *bb_obj;
    LLVMValueRef v;
    if (!PyArg_ParseTuple(args, "OO:add_incoming", &v_obj, &bb_obj) ||
        cj_irvalue_get(phi->builder, v_obj, &v) < 0) {
        return NULL;
    }
    LLVMBasicBlockRef bb = cj_irb_get_block(phi->builder, bb_obj);
    if (bb == NULL) {
        return NULL;
    }
    if (phi->v == NULL || !LLVMIsAPHINode(phi->v) || LLVMTypeOf(v) != LLVMTypeOf(phi->v)) {
        PyErr_SetString(PyExc_TypeError, "add_incoming: a PHI node and a value of its type");
        return NULL;
    }
    LLVMAddIncoming(phi->v, &v, &bb, 1);
    Py_RETURN_NONE;
}

static PyMethodDef value_methods[] = {
    {"add_incoming", value_add_incoming, METH_VARARGS, "phi.add_incoming(value, block)"},
    {NULL},
};

static PyObject *value_repr(PyObject *self) {
    irvalue *v = (irvalue *)self;
    if (!((irbuilder *)v->builder)->alive || v->v == NULL) {
        return PyUnicode_FromString(v->v == NULL ? "<ir block>" : "<ir value (finished)>");
    }
    char *text = LLVMPrintValueToString(v->v);
    PyObject *r = PyUnicode_FromFormat("<ir value %s>", text);
    LLVMDisposeMessage(text);
    return r;
}

static void value_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    Py_XDECREF(((irvalue *)self)->builder);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyGetSetDef value_getset[] = {
    {"type", value_type, NULL, "the value's ir type", NULL},
    {"is_terminated", value_is_terminated, NULL, "a block: whether it ends in a terminator",
     NULL},
    {NULL},
};

static PyType_Slot value_slots[] = {
    {Py_tp_dealloc, value_dealloc},
    {Py_tp_repr, value_repr},
    {Py_tp_getset, value_getset},
    {Py_tp_methods, value_methods},
    {Py_tp_doc, "An LLVM value or basic block in a lowering (cujit's llvmlite ir.Value)."},
    {0, NULL},
};

static PyType_Spec value_spec = {"cujit._core.IRValue", sizeof(irvalue), 0,
                                 Py_TPFLAGS_DEFAULT, value_slots};

/* ---- the builder (its methods: irbuilder_ops.c) ---- */

PyObject *cj_irbuilder_new(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef fn, cj_lower *L) {
    if (builder_class == NULL) {
        PyObject *m = PyImport_ImportModule("cujit.llvm.ir");
        Py_XDECREF(m);
        if (m != NULL && builder_class == NULL) {
            PyErr_SetString(PyExc_RuntimeError, "cujit.llvm.ir did not register its builder");
        }
        if (builder_class == NULL) {
            return NULL;
        }
    }
    PyObject *o = ((PyTypeObject *)builder_class)->tp_alloc((PyTypeObject *)builder_class, 0);
    if (o != NULL) {
        irbuilder *B = (irbuilder *)o;
        B->ctx = LLVMGetModuleContext(mod);
        B->mod = mod;
        B->b = b;
        B->fn = fn;
        B->L = L;
        B->alive = 1;
    }
    return o;
}

void cj_irbuilder_close(PyObject *builder) { ((irbuilder *)builder)->alive = 0; }

/* Accessors for irbuilder_ops.c. */
int cj_irb_check(PyObject *self) { return check_alive((irbuilder *)self); }
LLVMBuilderRef cj_irb_builder(PyObject *self) { return ((irbuilder *)self)->b; }
LLVMModuleRef cj_irb_module(PyObject *self) { return ((irbuilder *)self)->mod; }
LLVMValueRef cj_irb_function(PyObject *self) { return ((irbuilder *)self)->fn; }
cj_lower *cj_irb_lower(PyObject *self) { return ((irbuilder *)self)->L; }
LLVMTypeRef cj_irb_type(PyObject *self, PyObject *ty) { return ir_type((irbuilder *)self, ty); }
PyObject *cj_irb_py_type(LLVMTypeRef t) { return py_type(t); }
PyObject *cj_irb_block(PyObject *self, LLVMBasicBlockRef bb) { return block_new(self, bb); }
LLVMBasicBlockRef cj_irb_get_block(PyObject *self, PyObject *obj) {
    if (check_alive((irbuilder *)self) < 0) {
        return NULL;
    }
    if (!PyObject_TypeCheck(obj, ValueType) || ((irvalue *)obj)->bb == NULL ||
        ((irvalue *)obj)->builder != self) {
        PyErr_Format(PyExc_TypeError, "expected a block of this builder, got %.200s",
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return ((irvalue *)obj)->bb;
}

extern PyMethodDef cj_irbuilder_methods[];
extern PyGetSetDef cj_irbuilder_getset[];

static PyObject *builder_new(PyTypeObject *cls, PyObject *args, PyObject *kwargs) {
    PyErr_SetString(PyExc_TypeError, "IRBuilder objects are made by cujit for a lowering "
                                     "function (it gets one as `builder`)");
    return NULL;
}

static void builder_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static int builder_traverse(PyObject *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static PyType_Slot builder_slots[] = {
    {Py_tp_new, builder_new},
    {Py_tp_dealloc, builder_dealloc},
    {Py_tp_traverse, builder_traverse},
    {Py_tp_methods, cj_irbuilder_methods},
    {Py_tp_getset, cj_irbuilder_getset},
    {Py_tp_doc, "cujit's IRBuilder: llvmlite.ir.IRBuilder's methods over the LLVM C API."},
    {0, NULL},
};

static PyType_Spec builder_spec = {"cujit._core.IRBuilder", sizeof(irbuilder), 0,
                                   Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
                                   builder_slots};

/* _core.set_ir_hooks(builder_class, type_from_desc): cujit.llvm.ir's classes. */
static PyObject *set_ir_hooks(PyObject *module, PyObject *args) {
    PyObject *cls, *from_desc;
    if (!PyArg_ParseTuple(args, "O!O:set_ir_hooks", &PyType_Type, &cls, &from_desc)) {
        return NULL;
    }
    if (!PyType_IsSubtype((PyTypeObject *)cls, BuilderType) || !PyCallable_Check(from_desc)) {
        PyErr_SetString(PyExc_TypeError, "set_ir_hooks(a subclass of IRBuilder, a callable)");
        return NULL;
    }
    Py_XSETREF(builder_class, Py_NewRef(cls));
    Py_XSETREF(type_from_desc, Py_NewRef(from_desc));
    Py_RETURN_NONE;
}

/* _core.llvm_type_desc(type): the _desc of the LLVM type compiled code holds a cujit type
 * in (the data model's value type), from lower_types.c's one rule. */
static PyObject *llvm_type_desc(PyObject *module, PyObject *arg) {
    const cj_type *t = cj_type_from_py_checked(arg, "llvm_type_desc");
    if (t == NULL) {
        return NULL;
    }
    LLVMContextRef ctx = LLVMContextCreate();
    PyObject *r = type_desc(cj_llvm_type(ctx, t), 0);
    LLVMContextDispose(ctx);
    return r;
}

static PyMethodDef irbuilder_module_methods[] = {
    {"set_ir_hooks", set_ir_hooks, METH_VARARGS, "set_ir_hooks(builder_class, type_from_desc)"},
    {"llvm_type_desc", llvm_type_desc, METH_O, "llvm_type_desc(type): its LLVM type's _desc"},
    {NULL},
};

int cj_irbuilder_init(PyObject *module) {
    BuilderType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &builder_spec, NULL);
    ValueType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &value_spec, NULL);
    if (BuilderType == NULL || ValueType == NULL ||
        PyModule_AddObjectRef(module, "IRBuilder", (PyObject *)BuilderType) < 0 ||
        PyModule_AddObjectRef(module, "IRValue", (PyObject *)ValueType) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, irbuilder_module_methods);
}
