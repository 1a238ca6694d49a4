/* lower_try.c: raise and try/except (frontend/build_try.c). Compiled code raises by returning a
 * status: a raised exception's id is its entry in the registry (abi/excinfo.c);
 * in a block that has a handler every raise (cj_emit_fail: a raise, a failed check, a callee's
 * status) stores the status and branches to the handler block instead. There CJ_I_CATCH reads
 * it back (a Python exception that is set becomes an id: abi/excinfo.c), an except clause asks
 * the runtime whether it is an instance of the clause's classes (registered by id, so cached
 * code matches in another process), and a re-raise fails again with the same status. The
 * variables keep their references across the jump: they are the function's own slots. */
#include "lower/lower_internal.h"

static LLVMTypeRef i32_type(cj_lower *L) { return LLVMInt32TypeInContext(L->ctx); }

/* The function's slot for the status a handler catches (made on first use). */
static LLVMValueRef status_slot(cj_lower *L) {
    if (L->caught_status == NULL) {
        L->caught_status = cj_entry_alloca(L, i32_type(L), "caught_status");
    }
    return L->caught_status;
}

void cj_emit_fail(cj_lower *L, LLVMValueRef status) {
    int h = L->handler;
    if (!L->in_try || L->blocks[h] == NULL) {
        cj_emit_return(L, status);
        return;
    }
    LLVMBuildStore(L->b, status, status_slot(L));
    LLVMBuildBr(L->b, L->blocks[h]);
}

static LLVMValueRef call_runtime(cj_lower *L, const char *name, LLVMValueRef *args, int n) {
    LLVMTypeRef params[2] = {i32_type(L), i32_type(L)};
    LLVMValueRef fn = cj_runtime_fn(L, name, i32_type(L), params, (unsigned)n);
    LLVMTypeRef fn_t = LLVMFunctionType(i32_type(L), params, (unsigned)n, 0);
    return LLVMBuildCall2(L->b, fn_t, fn, args, (unsigned)n, "");
}

/* Whether the caught status is an instance of the classes `cls` names (one, or a tuple). */
static LLVMValueRef matches(cj_lower *L, LLVMValueRef status, const cj_type *cls) {
    if (cls->kind == CJ_TUPLE) {
        LLVMValueRef any = LLVMConstInt(LLVMInt1TypeInContext(L->ctx), 0, 0);
        for (int i = 0; i < cls->n && any != NULL; i++) {
            LLVMValueRef one = matches(L, status, cls->items[i]);
            any = one ? LLVMBuildOr(L->b, any, one, "") : NULL;
        }
        return any;
    }
    int id = cj_exc_id(L, cls->obj);
    if (id < 0) {
        return NULL;
    }
    LLVMValueRef args[2] = {status, LLVMConstInt(i32_type(L), (unsigned)id, 0)};
    LLVMValueRef hit = call_runtime(L, "cj_exc_match", args, 2);
    return LLVMBuildICmp(L->b, LLVMIntNE, hit, LLVMConstNull(i32_type(L)), "matched");
}

int cj_lower_try(cj_lower *L, cj_instr *in) {
    if (in->op == CJ_I_CATCH) {
        LLVMValueRef status = LLVMBuildLoad2(L->b, i32_type(L), status_slot(L), "caught");
        LLVMValueRef id = call_runtime(L, "cj_exc_catch", &status, 1);
        return cj_store_var(L, in->dst, id, cj_t_int32);
    }
    LLVMValueRef status = cj_load_var(L, in->args[0]);
    LLVMValueRef hit = matches(L, status, CJ_VAR(L->ir, in->args[1])->type);
    return hit ? cj_store_var(L, in->dst, hit, cj_t_bool) : -1;
}

/* raise: the exception instance made at typing (or the class) gets a registry id. */
int cj_lower_raise(cj_lower *L, cj_instr *in) {
    cj_func_ir *ir = L->ir;
    const cj_type *t = CJ_VAR(ir, in->args[0])->type;
    if (CJ_VAR(ir, in->args[0])->caught) { /* re-raise */
        cj_emit_fail(L, cj_load_var(L, in->args[0]));
        return 0;
    }
    PyObject *exc = t->obj;
    int var = in->args[0];
    /* follow copies back to the instruction that made the value */
    for (int hops = 0; hops < 64; hops++) {
        cj_instr *def = cj_ir_first_def(ir, var);
        if (def != NULL && def->op == CJ_I_COPY) {
            var = def->args[0];
            continue;
        }
        if (def != NULL && def->op == CJ_I_CALL && def->resolved != NULL &&
            ((const cj_call *)def->resolved)->kind == CJ_CALL_EXCEPTION) {
            exc = ((const cj_call *)def->resolved)->exception;
        }
        break;
    }
    int id = cj_exc_id(L, exc);
    if (id < 0) {
        return -1;
    }
    cj_emit_fail(L, LLVMConstInt(LLVMInt32TypeInContext(L->ctx), (unsigned)id, 0));
    return 0;
}

int cj_exc_id(cj_lower *L, PyObject *exc) {
    int id = cj_exc_register(exc);
    if (id < 0) {
        return -1;
    }
    if (L->env->exc_ids != NULL) {
        PyObject *key = PyLong_FromLong(id);
        if (key == NULL || PySet_Add(L->env->exc_ids, key) < 0) {
            Py_XDECREF(key);
            return -1;
        }
        Py_DECREF(key);
    }
    return id;
}
