/* lower.c: typed IR -> one LLVM function.
 * requires: typed IR (cj_infer); produces: i32 @name(ret*, args...) in the given module.
 * Every variable gets an alloca in the entry block (mem2reg/SROA, or NVVM, turn them into
 * registers); each reachable IR block becomes a basic block; an instruction's result is cast
 * from its own type to its variable's (unified) type when stored. */
#include "lower/lower_internal.h"

#include <string.h>

LLVMBasicBlockRef cj_new_bb(cj_lower *L, const char *name) {
    return LLVMAppendBasicBlockInContext(L->ctx, L->fn, name);
}

LLVMValueRef cj_entry_alloca(cj_lower *L, LLVMTypeRef t, const char *name) {
    if (L->gen != NULL) { /* a generator's storage lives on in its frame */
        return cj_gen_frame_slot(L, t, name); /* lower_generator.c */
    }
    LLVMBuilderRef b = LLVMCreateBuilderInContext(L->ctx);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(L->alloca_bb);
    if (term != NULL) {
        LLVMPositionBuilderBefore(b, term);
    } else {
        LLVMPositionBuilderAtEnd(b, L->alloca_bb);
    }
    LLVMValueRef slot = LLVMBuildAlloca(b, t, name);
    LLVMDisposeBuilder(b);
    return slot;
}

LLVMValueRef cj_load_var(cj_lower *L, int var) {
    cj_var *v = CJ_VAR(L->ir, var);
    LLVMTypeRef t = cj_llvm_type(L->ctx, v->type);
    return LLVMBuildLoad2(L->b, t, L->slots[var], v->name);
}

int cj_store_var_taking(cj_lower *L, int var, LLVMValueRef value, const cj_type *from) {
    const cj_type *to = CJ_VAR(L->ir, var)->type;
    LLVMValueRef v = cj_cast(L, value, from, to);
    if (v == NULL) {
        return -1;
    }
    LLVMValueRef old = cj_counts_refs(L, to) ? cj_load_var(L, var) : NULL;
    LLVMBuildStore(L->b, v, L->slots[var]);
    if (old != NULL) {
        cj_decref(L, old, to);
    }
    return 0;
}

int cj_store_var(cj_lower *L, int var, LLVMValueRef value, const cj_type *from) {
    const cj_type *to = CJ_VAR(L->ir, var)->type;
    LLVMValueRef v = cj_cast(L, value, from, to);
    if (v == NULL) {
        return -1;
    }
    if (!cj_counts_refs(L, to) || L->ref_plan[var] == CJ_REFS_BORROWED) {
        LLVMBuildStore(L->b, v, L->slots[var]);
        return 0;
    }
    cj_incref(L, v, to); /* the variable's reference to the new value, then the old one's */
    LLVMValueRef old = cj_load_var(L, var);
    LLVMBuildStore(L->b, v, L->slots[var]);
    cj_decref(L, old, to);
    return 0;
}

void cj_emit_raise(cj_lower *L, int id) {
    cj_emit_fail(L, LLVMConstInt(LLVMInt32TypeInContext(L->ctx), (unsigned)id, 0));
    LLVMPositionBuilderAtEnd(L->b, cj_new_bb(L, "after_raise"));
}

void cj_emit_raise_if(cj_lower *L, LLVMValueRef cond, int id) {
    LLVMBasicBlockRef fail = cj_new_bb(L, "raise");
    LLVMBasicBlockRef ok = cj_new_bb(L, "ok");
    LLVMBuildCondBr(L->b, cond, fail, ok);
    LLVMPositionBuilderAtEnd(L->b, fail);
    cj_emit_fail(L, LLVMConstInt(LLVMInt32TypeInContext(L->ctx), (unsigned)id, 0));
    LLVMPositionBuilderAtEnd(L->b, ok);
}

int cj_emit_raise_text_if(cj_lower *L, LLVMValueRef cond, PyObject *type, const char *text) {
    PyObject *exc = text ? PyObject_CallFunction(type, "s", text) : PyObject_CallNoArgs(type);
    int id = exc != NULL ? cj_exc_id(L, exc) : -1;
    Py_XDECREF(exc);
    if (id < 0) {
        return -1;
    }
    cj_emit_raise_if(L, cond, id);
    return 0;
}

void cj_emit_check_status(cj_lower *L, LLVMValueRef status) {
    LLVMValueRef failed = LLVMBuildICmp(L->b, LLVMIntNE, status,
                                        LLVMConstNull(LLVMTypeOf(status)), "failed");
    LLVMBasicBlockRef fail = cj_new_bb(L, "propagate");
    LLVMBasicBlockRef ok = cj_new_bb(L, "ok");
    LLVMBuildCondBr(L->b, failed, fail, ok);
    LLVMPositionBuilderAtEnd(L->b, fail);
    cj_emit_fail(L, status);
    LLVMPositionBuilderAtEnd(L->b, ok);
}

/* ---- constants ---- */

static LLVMValueRef const_scalar(cj_lower *L, PyObject *obj, const cj_type *t) {
    LLVMTypeRef lt = cj_llvm_type(L->ctx, t);
    if (t->kind == CJ_BOOL) {
        int truth = PyObject_IsTrue(obj);
        return truth < 0 ? NULL : LLVMConstInt(lt, (unsigned long long)truth, 0);
    }
    if (t->kind == CJ_INT) {
        unsigned long long u;
        if (t->is_signed) {
            long long v = PyLong_AsLongLong(obj);
            if (v == -1 && PyErr_Occurred()) {
                return NULL;
            }
            u = (unsigned long long)v;
        } else {
            u = PyLong_AsUnsignedLongLongMask(obj);
            if (u == (unsigned long long)-1 && PyErr_Occurred()) {
                return NULL;
            }
        }
        return LLVMConstInt(lt, u, t->is_signed);
    }
    if (t->kind == CJ_FLOAT) {
        double d = PyFloat_AsDouble(obj);
        return d == -1.0 && PyErr_Occurred() ? NULL : LLVMConstReal(lt, d);
    }
    if (t->kind == CJ_COMPLEX) {
        Py_complex c = PyComplex_AsCComplex(obj);
        if (c.real == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
        const cj_type *part = cj_type_float(t->bits / 2);
        return cj_make_complex(L, t, cj_float_const(L, part, c.real),
                               cj_float_const(L, part, c.imag));
    }
    return NULL;
}

LLVMValueRef cj_const_value(cj_lower *L, PyObject *obj, const cj_type *t) {
    if (cj_type_is_number(t)) {
        return const_scalar(L, obj, t);
    }
    if (t->kind == CJ_TUPLE) {
        if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != t->n) {
            PyErr_SetString(cj_LoweringError, "tuple constant does not match its type");
            return NULL;
        }
        LLVMValueRef r = LLVMGetUndef(cj_llvm_type(L->ctx, t));
        for (int i = 0; i < t->n; i++) {
            LLVMValueRef item = cj_const_value(L, PyTuple_GET_ITEM(obj, i), t->items[i]);
            if (item == NULL) {
                return NULL;
            }
            r = LLVMBuildInsertValue(L->b, r, item, (unsigned)i, "");
        }
        return r;
    }
    if (t->kind == CJ_ARRAY) {
        return cj_const_array(L, obj, t);
    }
    return cj_empty(L); /* None, strings and other compile-time objects carry no data */
}

/* ---- instructions ---- */

static int lower_const(cj_lower *L, cj_instr *in) {
    LLVMValueRef v = cj_const_value(L, in->obj, in->rtype);
    return v ? cj_store_var(L, in->dst, v, in->rtype) : -1;
}

static int lower_arg(cj_lower *L, cj_instr *in) {
    const cj_type *at = L->argtypes[in->index];
    if (at->kind == CJ_OMITTED) { /* the default value, known at compile time */
        LLVMValueRef v = cj_const_value(L, at->obj, in->rtype);
        return v ? cj_store_var(L, in->dst, v, in->rtype) : -1;
    }
    LLVMValueRef p = L->gen ? cj_gen_load_arg(L, in->index) /* from its frame */
                            : LLVMGetParam(L->fn, (unsigned)in->index + 1);
    return cj_store_var(L, in->dst, p, at);
}

static int lower_build_tuple(cj_lower *L, cj_instr *in) {
    const cj_type *t = in->rtype;
    /* () (an empty list literal): a constant, not undef */
    LLVMValueRef r = in->nargs == 0 ? LLVMConstNull(cj_llvm_type(L->ctx, t))
                                    : LLVMGetUndef(cj_llvm_type(L->ctx, t));
    for (int i = 0; i < in->nargs; i++) {
        r = LLVMBuildInsertValue(L->b, r, cj_load_var(L, in->args[i]), (unsigned)i, "");
    }
    return cj_store_var(L, in->dst, r, t);
}

/* slice(start, stop[, step]) as {start, stop, step}; a None start/stop is INT64_MIN. */
static int lower_build_slice(cj_lower *L, cj_instr *in) {
    LLVMValueRef parts[3] = {cj_i64(L, INT64_MIN), cj_i64(L, INT64_MIN), cj_i64(L, 1)};
    int first = in->nargs == 1; /* slice(stop) */
    for (int i = 0; i < in->nargs; i++) {
        const cj_type *t = CJ_VAR(L->ir, in->args[i])->type;
        if (t->kind != CJ_NONE) {
            parts[first + i] = cj_cast(L, cj_load_var(L, in->args[i]), t, cj_t_int64);
        }
    }
    LLVMValueRef r = LLVMGetUndef(cj_llvm_type(L->ctx, in->rtype));
    for (int i = 0; i < 3; i++) {
        r = LLVMBuildInsertValue(L->b, r, parts[i], (unsigned)i, "");
    }
    return cj_store_var(L, in->dst, r, in->rtype);
}

static const cj_type *vtype(cj_lower *L, int var) { return CJ_VAR(L->ir, var)->type; }

static int lower_getattr(cj_lower *L, cj_instr *in) {
    if (in->flags & CJ_F_ATTR_CALL) { /* an extension's attribute: a call (lower_call.c) */
        return cj_lower_call(L, in);
    }
    if (in->resolved != NULL) { /* a CUDA intrinsic value (lower_cuda.c) */
        return cj_cuda_lower_getattr(L, in);
    }
    const cj_type *t = vtype(L, in->args[0]);
    const char *name = PyUnicode_AsUTF8(in->obj);
    if (name == NULL) {
        return -1;
    }
    LLVMValueRef v = cj_load_var(L, in->args[0]);
    LLVMValueRef r;
    int fresh = 0; /* a new array the variable takes over (a real array's imag) */
    if (in->sub == CJ_SUB_FIELD) { /* lower_record.c */
        r = t->kind == CJ_RECORD ? cj_record_field(L, v, t, in->index)
                                 : cj_record_array_field(L, v, t, in->index, in->rtype);
    } else if (in->rtype->kind == CJ_BOUND) { /* a method: its call reads the receiver */
        r = cj_empty(L);
    } else if (t->kind == CJ_ARRAY && (strcmp(name, "real") == 0 || strcmp(name, "imag") == 0)) {
        r = cj_array_part(L, v, t, name[0] == 'i', in->rtype, &fresh); /* lower_array_shape.c */
    } else if (t->kind == CJ_ARRAY && in->rtype->kind == CJ_ITER) { /* a.flat */
        r = cj_lower_flat(L, v, in->rtype);
    } else if (t->kind == CJ_ARRAY) {
        r = cj_array_attr(L, v, t, name);
    } else if (t->kind == CJ_RANGE) { /* {start, stop, step} (lower_call.c's make_range) */
        unsigned field = strcmp(name, "start") == 0 ? 0 : strcmp(name, "stop") == 0 ? 1 : 2;
        r = LLVMBuildExtractValue(L->b, v, field, "");
    } else if (t->kind == CJ_SLICE) {
        r = cj_lower_slice_attr(L, v, name); /* lower_slice.c */
    } else if (t->kind == CJ_COMPLEX) {
        LLVMValueRef im;
        LLVMValueRef re = cj_complex_parts(L, v, &im);
        r = strcmp(name, "real") == 0 ? re : im;
    } else { /* .real / .imag of a real number */
        const cj_type *rt = in->rtype;
        r = strcmp(name, "real") == 0 ? cj_cast(L, v, t, rt)
                                      : LLVMConstNull(cj_llvm_type(L->ctx, rt));
    }
    if (r == NULL) {
        return -1;
    }
    return fresh ? cj_store_var_taking(L, in->dst, r, in->rtype)
                 : cj_store_var(L, in->dst, r, in->rtype);
}

/* tuple[i]: a static index, or a run-time index into a homogeneous tuple. */
static LLVMValueRef tuple_getitem(cj_lower *L, cj_instr *in, const cj_type *t) {
    LLVMValueRef tup = cj_load_var(L, in->args[0]);
    if (in->sub == 1) {
        return LLVMBuildExtractValue(L->b, tup, (unsigned)in->index, "item");
    }
    LLVMTypeRef item_t = cj_llvm_type(L->ctx, t->items[0]);
    LLVMValueRef mem = cj_entry_alloca(L, LLVMArrayType(item_t, (unsigned)t->n), "tuple");
    LLVMValueRef as_struct = LLVMBuildBitCast(L->b, mem, LLVMPointerType(LLVMTypeOf(tup), 0), "");
    LLVMBuildStore(L->b, tup, as_struct);
    LLVMValueRef idx = cj_cast(L, cj_load_var(L, in->args[1]), vtype(L, in->args[1]), cj_t_int64);
    LLVMValueRef n = cj_i64(L, t->n);
    LLVMValueRef neg = LLVMBuildICmp(L->b, LLVMIntSLT, idx, cj_i64(L, 0), "");
    idx = LLVMBuildSelect(L->b, neg, LLVMBuildAdd(L->b, idx, n, ""), idx, "idx");
    LLVMValueRef bad = LLVMBuildICmp(L->b, LLVMIntUGE, idx, n, "");
    cj_emit_raise_if(L, bad, CJ_EXC_INDEX);
    LLVMValueRef zero = cj_i64(L, 0);
    LLVMValueRef gep_idx[2] = {zero, idx};
    LLVMValueRef p = LLVMBuildInBoundsGEP2(L->b, LLVMArrayType(item_t, (unsigned)t->n), mem,
                                           gep_idx, 2, "");
    cj_ub_proof(p, "index: below the length, IndexError raised above");
    return LLVMBuildLoad2(L->b, item_t, p, "item");
}

static int lower_getitem(cj_lower *L, cj_instr *in) {
    const cj_type *t = vtype(L, in->args[0]);
    LLVMValueRef r;
    if (t->kind == CJ_LIST) {
        return cj_lower_list_getitem(L, in); /* lower_list.c */
    }
    if (t->kind == CJ_DICT) {
        return cj_lower_dict_getitem(L, in); /* lower_dict.c */
    }
    if (t->kind == CJ_CPOINTER) {
        return cj_lower_cpointer_getitem(L, in); /* lower_cpointer.c */
    }
    if (in->sub == CJ_SUB_FIELD) { /* rec['x'], a['x']: lower_record.c */
        LLVMValueRef v = cj_load_var(L, in->args[0]);
        r = t->kind == CJ_RECORD ? cj_record_field(L, v, t, in->index)
                                 : cj_record_array_field(L, v, t, in->index, in->rtype);
    } else if (t->kind == CJ_TUPLE) {
        r = in->sub == CJ_SUB_STATIC_SLICE ? cj_lower_tuple_slice(L, in) /* lower_tuple.c */
                                           : tuple_getitem(L, in, t);
    } else if (t->kind == CJ_ITER) { /* a.flat[i] */
        r = cj_flat_getitem(L, cj_load_var(L, in->args[0]), t, cj_load_var(L, in->args[1]),
                            vtype(L, in->args[1]));
    } else if (vtype(L, in->args[1])->kind == CJ_ARRAY) { /* lower_array_fancy.c */
        r = cj_lower_fancy_getitem(L, in);
        return r ? cj_store_var_taking(L, in->dst, r, in->rtype) : -1;
    } else {
        r = cj_array_getitem(L, cj_load_var(L, in->args[0]), t, cj_load_var(L, in->args[1]),
                             vtype(L, in->args[1]), in->rtype);
    }
    return r ? cj_store_var(L, in->dst, r, in->rtype) : -1;
}

static int lower_setitem(cj_lower *L, cj_instr *in) {
    if (in->flags & CJ_F_ATTR_CALL) { /* an extension's lower_setattr */
        return cj_lower_extension_setattr(L, in);
    }
    if (vtype(L, in->args[0])->kind == CJ_LIST) {
        return cj_lower_list_setitem(L, in); /* lower_list.c */
    }
    if (vtype(L, in->args[0])->kind == CJ_DICT) {
        return cj_lower_dict_setitem(L, in); /* lower_dict.c */
    }
    if (vtype(L, in->args[0])->kind == CJ_CPOINTER) {
        return cj_lower_cpointer_setitem(L, in); /* lower_cpointer.c */
    }
    if (in->sub == CJ_SUB_FIELD) { /* rec.x = v, rec['x'] = v: lower_record.c */
        return cj_record_set_field(L, cj_load_var(L, in->args[0]), vtype(L, in->args[0]),
                                   in->index, cj_load_var(L, in->args[2]),
                                   vtype(L, in->args[2]));
    }
    if (vtype(L, in->args[0])->kind == CJ_ITER) { /* a.flat[i] = v */
        return cj_flat_setitem(L, cj_load_var(L, in->args[0]), vtype(L, in->args[0]),
                               cj_load_var(L, in->args[1]), vtype(L, in->args[1]),
                               cj_load_var(L, in->args[2]), vtype(L, in->args[2]));
    }
    if (vtype(L, in->args[1])->kind == CJ_ARRAY) { /* lower_array_fancy.c */
        return cj_lower_fancy_setitem(L, in);
    }
    return cj_array_setitem(L, cj_load_var(L, in->args[0]), vtype(L, in->args[0]),
                            cj_load_var(L, in->args[1]), vtype(L, in->args[1]),
                            cj_load_var(L, in->args[2]), vtype(L, in->args[2]), in->optype);
}

static int lower_value_op(cj_lower *L, cj_instr *in) {
    LLVMValueRef r = NULL;
    const cj_type *a = in->nargs > 0 ? vtype(L, in->args[0]) : NULL;
    const cj_type *b = in->nargs > 1 ? vtype(L, in->args[1]) : NULL;
    int identity = in->op == CJ_I_COMPARE && (in->sub == CJ_IS || in->sub == CJ_ISNOT);
    if ((in->op == CJ_I_BINOP || in->op == CJ_I_COMPARE) && !identity &&
        (a->kind == CJ_SET || (b != NULL && b->kind == CJ_SET))) {
        return cj_lower_set_op(L, in); /* lower_set.c */
    }
    if ((in->op == CJ_I_BINOP || in->op == CJ_I_UNARY || in->op == CJ_I_COMPARE) && !identity &&
        (a->kind == CJ_ARRAY || (b != NULL && b->kind == CJ_ARRAY))) {
        if (L->fused[in->dst] == in) {
            return 0; /* computed in its reader's loop (lower_array_fuse.c) */
        }
        int fresh;
        r = cj_lower_array_op(L, in, &fresh); /* lower_array_expr.c */
        if (r == NULL) {
            return -1;
        }
        return fresh ? cj_store_var_taking(L, in->dst, r, in->rtype)
                     : cj_store_var(L, in->dst, r, in->rtype);
    }
    switch (in->op) {
    case CJ_I_BINOP: {
        /* a constant exponent reaches cj_lower_binop as an LLVM constant: multiplied out */
        LLVMValueRef rhs = in->flags & CJ_F_CONST_EXP
                               ? LLVMConstInt(cj_llvm_type(L->ctx, b),
                                              (unsigned long long)(long long)in->index, 1)
                               : cj_load_var(L, in->args[1]);
        r = cj_lower_binop(L, in->sub, cj_load_var(L, in->args[0]), a, rhs, b, in->optype,
                           in->rtype);
        break;
    }
    case CJ_I_UNARY:
        r = cj_lower_unary(L, in->sub, cj_load_var(L, in->args[0]), a, in->rtype);
        break;
    case CJ_I_COMPARE:
        if ((in->sub == CJ_IN || in->sub == CJ_NOTIN) && b->kind == CJ_LIST) {
            r = cj_lower_list_contains(L, in); /* lower_list_ops.c */
            break;
        }
        if ((in->sub == CJ_IN || in->sub == CJ_NOTIN) && b->kind == CJ_TUPLE) {
            r = cj_lower_tuple_contains(L, in); /* lower_tuple.c */
            break;
        }
        if ((in->sub == CJ_IN || in->sub == CJ_NOTIN) &&
            (b->kind == CJ_DICT || cj_type_is_dict_view(b))) {
            r = cj_lower_dict_contains(L, in); /* lower_dict.c */
            break;
        }
        r = cj_lower_compare(L, in->sub, cj_load_var(L, in->args[0]), a,
                             cj_load_var(L, in->args[1]), b, in->optype);
        break;
    case CJ_I_TRUTH:
        r = cj_truth(L, cj_load_var(L, in->args[0]), a);
        break;
    case CJ_I_STATIC_ITEM:
        r = LLVMBuildExtractValue(L->b, cj_load_var(L, in->args[0]), (unsigned)in->index, "");
        break;
    case CJ_I_GETITER:
        if (cj_prange_at(L, in)) { /* a parallel loop runs here (lower_prange.c) */
            return cj_lower_prange(L, in);
        }
        r = cj_lower_getiter(L, cj_load_var(L, in->args[0]), a, in->rtype);
        break;
    default:
        CJ_UNREACHABLE("not a value op");
        return -1;
    }
    return r ? cj_store_var(L, in->dst, r, in->rtype) : -1;
}

static int lower_iternext(cj_lower *L, cj_instr *in) {
    const cj_type *it = vtype(L, in->args[0]);
    LLVMValueRef ok;
    LLVMValueRef v = cj_lower_iternext(L, cj_load_var(L, in->args[0]), it, &ok);
    if (v == NULL || cj_store_var(L, in->dst2, ok, cj_t_bool) < 0) {
        return -1;
    }
    return cj_store_var(L, in->dst, v, it->yield);
}

static int lower_terminator(cj_lower *L, cj_instr *in) {
    if (in->op == CJ_I_JUMP || in->op == CJ_I_BRANCH) {
        int known = in->op == CJ_I_BRANCH ? CJ_VAR(L->ir, in->args[0])->known : 1;
        int need_first = known != 0, need_second = in->op == CJ_I_BRANCH && known != 1;
        if ((need_first && L->blocks[in->target] == NULL) ||
            (need_second && L->blocks[in->target2] == NULL)) {
            PyErr_SetString(cj_LoweringError, "cujit internal error: a branch into a pruned "
                                              "block");
            return -1;
        }
    }
    switch (in->op) {
    case CJ_I_JUMP:
        LLVMBuildBr(L->b, L->blocks[in->target]);
        return 0;
    case CJ_I_BRANCH: {
        cj_var *cond = CJ_VAR(L->ir, in->args[0]);
        if (cond->known == 0 || cond->known == 1) { /* decided at compile time */
            LLVMBuildBr(L->b, L->blocks[cond->known ? in->target : in->target2]);
            return 0;
        }
        LLVMValueRef t = cj_truth(L, cj_load_var(L, in->args[0]), cond->type);
        LLVMBuildCondBr(L->b, t, L->blocks[in->target], L->blocks[in->target2]);
        return 0;
    }
    case CJ_I_RETURN: {
        if (L->gen != NULL) { /* a generator's return stops it (lower_generator.c) */
            cj_gen_lower_return(L);
            return 0;
        }
        const cj_type *t = vtype(L, in->args[0]);
        LLVMValueRef v = cj_cast(L, cj_load_var(L, in->args[0]), t, L->ret_type);
        if (v == NULL) {
            return -1;
        }
        LLVMBuildStore(L->b, v, L->ret_ptr);
        cj_incref(L, v, L->ret_type); /* the caller's reference */
        cj_emit_return(L, LLVMConstInt(LLVMInt32TypeInContext(L->ctx), 0, 0));
        return 0;
    }
    case CJ_I_RAISE:
        return cj_lower_raise(L, in);
    default:
        CJ_UNREACHABLE("not a terminator");
        return -1;
    }
}

static int lower_instr(cj_lower *L, cj_instr *in) {
    if (in->flags & CJ_F_STR) {
        return cj_lower_str_instr(L, in); /* lower_str_ops.c */
    }
    if (in->flags & CJ_F_LIST_OP) {
        return cj_lower_list_operator(L, in); /* lower_list_concat.c */
    }
    if (in->flags & CJ_F_HELPER_CALL) { /* typing/range_ops.c */
        return cj_lower_call(L, in);
    }
    switch (in->op) {
    case CJ_I_CONST:
        return lower_const(L, in);
    case CJ_I_ARG:
        return lower_arg(L, in);
    case CJ_I_GLOBAL: { /* an extension type's value: its lower_constant (lower_extension.c) */
        LLVMValueRef v = in->rtype->kind == CJ_EXT ? cj_lower_extension_constant(L, in)
                                                   : cj_empty(L);
        return v ? cj_store_var(L, in->dst, v, in->rtype) : -1;
    }
    case CJ_I_COPY:
        if ((in->flags & CJ_F_LIST) && vtype(L, in->dst)->kind == CJ_LIST) {
            return cj_lower_list_build(L, in); /* a folded literal (lower_list.c) */
        }
        if (L->ref_plan[in->args[0]] == CJ_REFS_MOVED) { /* the reference goes with the value */
            LLVMValueRef moved = cj_load_var(L, in->args[0]);
            LLVMBuildStore(L->b, LLVMConstNull(LLVMTypeOf(moved)), L->slots[in->args[0]]);
            return cj_store_var_taking(L, in->dst, moved, vtype(L, in->args[0]));
        }
        return cj_store_var(L, in->dst, cj_load_var(L, in->args[0]), vtype(L, in->args[0]));
    case CJ_I_CALL:
        return cj_lower_call(L, in);
    case CJ_I_GETATTR:
        return lower_getattr(L, in);
    case CJ_I_GETITEM:
        return lower_getitem(L, in);
    case CJ_I_SETITEM:
        return lower_setitem(L, in);
    case CJ_I_BUILD_TUPLE:
        return vtype(L, in->dst)->kind == CJ_LIST   ? cj_lower_list_build(L, in)
               : vtype(L, in->dst)->kind == CJ_DICT ? cj_lower_dict_build(L, in)
               : vtype(L, in->dst)->kind == CJ_SET  ? cj_lower_set_build(L, in)
                                                    : lower_build_tuple(L, in);
    case CJ_I_BUILD_SLICE:
        return lower_build_slice(L, in);
    case CJ_I_ITERNEXT:
        return lower_iternext(L, in);
    case CJ_I_CATCH:
    case CJ_I_EXC_MATCH:
        return cj_lower_try(L, in); /* lower_try.c */
    case CJ_I_YIELD:
        return cj_gen_lower_yield(L, in); /* lower_generator.c */
    case CJ_I_JUMP:
    case CJ_I_BRANCH:
    case CJ_I_RETURN:
    case CJ_I_RAISE:
        return lower_terminator(L, in);
    default:
        return lower_value_op(L, in);
    }
}

void cj_make_var_slot(cj_lower *L, int v) {
    cj_var *var = CJ_VAR(L->ir, v);
    LLVMTypeRef t = cj_llvm_type(L->ctx, var->type);
    L->slots[v] = cj_entry_alloca(L, t, var->name);
    int refs = cj_counts_refs(L, var->type);
    L->owns_refs |= refs;
    /* a local read before any assignment reads zero, not junk; a variable holding
     * references starts with none (its first store drops the old value's); a generator's
     * frame starts zeroed (abi/generator.h) */
    if ((!var->is_temp || refs) && L->gen == NULL) {
        LLVMBuilderRef b = LLVMCreateBuilderInContext(L->ctx);
        LLVMPositionBuilderAtEnd(b, L->alloca_bb);
        LLVMBuildStore(b, LLVMConstNull(t), L->slots[v]);
        LLVMDisposeBuilder(b);
    }
}

static int make_slots(cj_lower *L) {
    cj_func_ir *ir = L->ir;
    L->slots = cj_arena_alloc(&ir->arena, sizeof(LLVMValueRef) * (size_t)(ir->vars.len + 1));
    if (L->slots == NULL) {
        return -1;
    }
    for (int v = 0; v < ir->vars.len; v++) {
        if (CJ_VAR(ir, v)->type != NULL) {
            cj_make_var_slot(L, v);
        }
    }
    /* a lowering's compile_internal may hold an array until the function returns */
    L->owns_refs |= L->env->target == CJ_TARGET_CPU && cj_lowers_extensions(ir);
    return 0;
}

int cj_lower_block(cj_lower *L, int i) {
    cj_block *blk = CJ_BLOCK(L->ir, i);
    LLVMPositionBuilderAtEnd(L->b, L->blocks[i]);
    L->in_try = blk->handler >= 0;
    L->handler = blk->handler;
    for (int k = 0; k < blk->instrs.len; k++) {
        if (L->env->at_line != NULL) {
            L->env->at_line(L->env, L->b, L->fn, CJ_INSTR(blk, k)->line);
        }
        if (lower_instr(L, CJ_INSTR(blk, k)) < 0) {
            return -1;
        }
    }
    if (cj_block_terminator(blk) == NULL) {
        LLVMBuildUnreachable(L->b);
    }
    L->in_try = 0;
    return 0;
}

static int lower_blocks(cj_lower *L) {
    cj_func_ir *ir = L->ir;
    for (int i = 0; i < ir->blocks.len; i++) {
        if (!CJ_BLOCK(ir, i)->reachable || L->blocks[i] == NULL) {
            continue; /* pruned, or a prange loop's (lower_prange.c) */
        }
        if (i % 128 == 127 && PyErr_CheckSignals() < 0) {
            return -1; /* Ctrl-C in a long compile */
        }
        int rc = cj_prange_header(L, i) ? cj_lower_prange_header(L, i) : cj_lower_block(L, i);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

/* Unreachable "after_raise" blocks left empty get a terminator. */
void cj_seal_empty_blocks(cj_lower *L) {
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(L->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        if (LLVMGetBasicBlockTerminator(bb) == NULL) {
            LLVMPositionBuilderAtEnd(L->b, bb);
            LLVMBuildUnreachable(L->b);
        }
    }
}

void cj_mark_function(cj_lower *L) {
    /* the C API of LLVM 14 has no per-instruction flags: per function, for numba's flag set
     * (unsafe-fp-math needs reassoc, arcp and contract together) */
    static const struct { int bits; const char *attr; } fast[] = {
        {CJ_FASTMATH_REASSOC | CJ_FASTMATH_ARCP | CJ_FASTMATH_CONTRACT, "unsafe-fp-math"},
        {CJ_FASTMATH_NNAN, "no-nans-fp-math"}, {CJ_FASTMATH_NINF, "no-infs-fp-math"},
        {CJ_FASTMATH_NSZ, "no-signed-zeros-fp-math"}, {CJ_FASTMATH_AFN, "approx-func-fp-math"}};
    int fm = L->env->fastmath == 1 ? ~0 : L->env->fastmath;
    for (size_t i = 0; fm && i < sizeof(fast) / sizeof(fast[0]); i++) {
        if ((fm & fast[i].bits) == fast[i].bits) {
            LLVMAddAttributeAtIndex(L->fn, LLVMAttributeFunctionIndex,
                                    LLVMCreateStringAttribute(L->ctx, fast[i].attr,
                                                              (unsigned)strlen(fast[i].attr),
                                                              "true", 4));
        }
    }
}

static LLVMValueRef declare_function(cj_lower *L, int nargs, const char *name) {
    LLVMTypeRef params[66];
    params[0] = LLVMPointerType(cj_llvm_type(L->ctx, L->ret_type), 0);
    for (int i = 0; i < nargs; i++) {
        params[i + 1] = cj_llvm_type(L->ctx, L->argtypes[i]);
    }
    LLVMTypeRef ft = LLVMFunctionType(LLVMInt32TypeInContext(L->ctx), params,
                                      (unsigned)nargs + 1, 0);
    return LLVMAddFunction(L->mod, name, ft);
}

int cj_lower_body(cj_lower *L) {
    cj_func_ir *ir = L->ir;
    L->b = LLVMCreateBuilderInContext(L->ctx);
    L->alloca_bb = cj_new_bb(L, "entry");
    L->blocks = cj_arena_alloc(&ir->arena, sizeof(LLVMBasicBlockRef) * (size_t)ir->blocks.len);
    int rc = L->blocks && make_slots(L) == 0 && cj_plan_refs(L) == 0 &&
             cj_find_fused_array_ops(L) == 0 && cj_plan_pranges(L) == 0 ? 0 : -1;
    for (int i = 0; rc == 0 && i < ir->blocks.len; i++) {
        if (CJ_BLOCK(ir, i)->reachable && !cj_prange_body(L, i)) {
            char bb_name[32];
            PyOS_snprintf(bb_name, sizeof(bb_name), "L%d", i);
            L->blocks[i] = cj_new_bb(L, bb_name);
        }
    }
    if (rc == 0) {
        LLVMPositionBuilderAtEnd(L->b, L->alloca_bb);
        if (L->gen != NULL) {
            rc = cj_gen_enter(L); /* switch on where it stopped (lower_generator.c) */
        } else {
            LLVMBuildBr(L->b, L->blocks[0]);
        }
    }
    rc = rc == 0 ? lower_blocks(L) : -1;
    if (rc == 0) {
        cj_finish_exit(L); /* before sealing: the exit block has no terminator yet */
        cj_seal_empty_blocks(L);
    }
    LLVMDisposeBuilder(L->b);
    L->b = NULL;
    return rc;
}

LLVMValueRef cj_lower_function(cj_func_ir *ir, const cj_type *const *argtypes, int nargs,
                               const cj_type *ret, LLVMModuleRef module, const char *name,
                               cj_lower_env *env) {
    if (ir->is_generator) { /* its call makes a frame; its body resumes (lower_generator.c) */
        return cj_lower_generator(ir, argtypes, nargs, ret, module, name, env);
    }
    cj_lower L = {.ir = ir, .env = env, .mod = module, .ret_type = ret, .argtypes = argtypes};
    L.ctx = LLVMGetModuleContext(module);
    if (ret->kind == CJ_VOID) {
        L.ret_type = cj_t_none;
    }
    L.fn = declare_function(&L, nargs, name);
    cj_mark_function(&L);
    L.ret_ptr = LLVMGetParam(L.fn, 0);
    if (cj_lower_body(&L) < 0) {
        LLVMDeleteFunction(L.fn);
        return NULL;
    }
    return L.fn;
}
