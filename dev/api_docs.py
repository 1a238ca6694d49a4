"""Writes docs/api.md, the API reference, from the docstrings of cujit's public names (issue 14).
`python3 dev/api_docs.py` rewrites it; `--check` exits 1 when it is out of date (the tests run
that). Run with the checkout's pkg on the path and without CUJIT_ENABLE_CUDASIM."""
import importlib
import inspect
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "docs", "api.md")

SECTIONS = [
    ("cujit", ["jit", "njit", "vectorize", "guvectorize", "DUFunc", "annotate", "objmode", "typeof",
               "from_dtype", "parse_signature", "literal_unroll"]),
    ("cujit.types", ["Type", "Number", "Integer", "Float", "Complex", "Boolean", "NoneType",
                     "Optional", "Buffer", "Array", "BaseTuple", "Tuple", "UniTuple", "NamedTuple",
                     "Record", "CPointer", "RawPointer", "Literal", "literal", "unliteral",
                     "Function", "Dispatcher", "NumberClass", "DType", "Omitted", "typeof"]),
    ("cujit.np.numpy_support", ["from_dtype", "as_dtype"]),
    ("cujit.extending", ["overload", "register_jitable", "overload_method", "overload_attribute",
                         "overload_classmethod", "literally", "is_jitted", "typeof_impl",
                         "type_callable", "register_model", "make_attribute_wrapper",
                         "lower_builtin", "lower_getattr", "lower_getattr_generic",
                         "lower_setattr", "lower_setattr_generic", "infer_getattr",
                         "infer_global", "lower_constant", "lower_cast", "box", "unbox",
                         "reflect", "NativeValue", "intrinsic"]),
    ("cujit.core.typing.templates", ["AttributeTemplate", "AbstractTemplate", "ConcreteTemplate",
                                     "signature", "infer"]),
    ("cujit.core.cgutils", ["create_struct_proxy", "is_not_null", "is_null"]),
    ("cujit.llvm.ir", ["IntType", "DoubleType", "FloatType", "PointerType", "LiteralStructType",
                       "ArrayType", "FunctionType", "Constant", "IRBuilder"]),
    ("cujit.decorators.Dispatcher (what jit returns)", None),
    ("cujit.cuda", ["jit", "compile_ptx", "compile_ptx_for_current_device", "declare_device",
                    "to_device", "device_array", "device_array_like", "pinned_array",
                    "pinned_array_like", "mapped_array", "mapped_array_like", "managed_array",
                    "as_cuda_array",
                    "is_cuda_array", "from_dlpack", "stream", "default_stream", "external_stream",
                    "event", "event_elapsed_time", "synchronize", "is_available", "detect",
                    "select_device", "get_current_device", "list_devices", "current_context",
                    "close", "set_memory_manager", "defer_cleanup", "set_deallocation_limits",
                    "profile_start", "profile_stop", "profiling", "Reduce"]),
    ("cujit.cuda.random", ["create_xoroshiro128p_states", "init_xoroshiro128p_states",
                           "xoroshiro128p_uniform_float32", "xoroshiro128p_uniform_float64",
                           "xoroshiro128p_normal_float32", "xoroshiro128p_normal_float64",
                           "xoroshiro128p_next", "xoroshiro128p_jump"]),
    ("cujit.cuda.DeviceNDArray", None),
    ("cujit.cuda.Stream", None),
    ("cujit.cuda.Event", None),
    ("cujit.typed.List", None),
    ("cujit.typed.Dict", None),
]


def _signature(obj):
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return "(...)"


def _entry(title, obj):
    doc = inspect.getdoc(obj) or "(no docstring)"
    return f"### `{title}{_signature(obj) if callable(obj) and not inspect.isclass(obj) else ''}`\n\n{doc}\n"


def _class_members(cls):
    out = []
    for name, member in sorted(vars(cls).items()):
        if name.startswith("_") or not (callable(member) or isinstance(member, property) or
                                        type(member).__name__ in ("getset_descriptor",
                                                                  "member_descriptor")):
            continue
        obj = getattr(cls, name)
        doc = inspect.getdoc(member) or "(no docstring)"
        sig = _signature(obj) if callable(obj) and not isinstance(member, property) else ""
        out.append(f"- **`{name}{sig}`**: {doc.splitlines()[0]}")
    return out


def render():
    sys.path.insert(0, os.path.join(ROOT, "pkg"))
    import cujit
    from cujit import cuda
    from cujit.np import numpy_support
    from cujit import extending
    from cujit.decorators import Dispatcher
    from cujit.typed import Dict, List
    classes = {"cujit.typed.List": List, "cujit.typed.Dict": Dict,"cujit.decorators.Dispatcher (what jit returns)": Dispatcher,
               "cujit.cuda.DeviceNDArray": cuda.DeviceNDArray, "cujit.cuda.Stream": cuda.Stream,
               "cujit.cuda.Event": cuda.Event}
    parts = ["# API reference\n",
             "Generated from the docstrings by `dev/api_docs.py` with Python "
             f"{sys.version_info[0]}.{sys.version_info[1]} (the tests check it is current). "
             "The names and behaviour follow numba's; see docs/porting.md and "
             "docs/differences.md.\n"]
    for title, names in SECTIONS:
        parts.append(f"## {title}\n")
        if names is None:
            cls = classes[title]
            parts.append((inspect.getdoc(cls) or "") + "\n")
            parts.append("\n".join(_class_members(cls)) + "\n")
            continue
        module = importlib.import_module(title)
        for name in names:
            parts.append(_entry(f"{title}.{name}", getattr(module, name)))
    return "\n".join(parts)


def main():
    text = render()
    if "--check" in sys.argv:
        with open(OUT) as f:
            if f.read() != text:
                print("docs/api.md is out of date: run python3 dev/api_docs.py")
                return 1
        return 0
    with open(OUT, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
