"""numba names cujit does not have yet: using one raises NotImplementedError saying so (and
which work will bring it), instead of an AttributeError that reads like a typo. Looked up by
the module-level __getattr__ of cujit and cujit.cuda; names cujit has never reach it."""

# name -> what it is in numba, and that cujit does not have it yet (the open issues plan each)
TOP_LEVEL = {
    "generated_jit": "numba.generated_jit: not supported (numba removed it in 0.59; use overload)",
    "cfunc": "numba.cfunc (C callbacks): not yet",
    "stencil": "numba.stencil: not yet",
    "carray": "numba.carray: not yet",
    "farray": "numba.farray: not yet",
}

CUDA = {
    "vectorize": "numba.cuda.vectorize: use cujit.vectorize(..., target='cuda')",
    "guvectorize": "numba.cuda.guvectorize: use cujit.guvectorize(..., target='cuda')",
}


def lookup(table, module, name):
    """For a module's __getattr__: NotImplementedError for a known numba name, else the
    AttributeError Python would give."""
    if name in table:
        raise NotImplementedError(f"{module}.{name}: {table[name]}")
    raise AttributeError(f"module {module!r} has no attribute {name!r}")
