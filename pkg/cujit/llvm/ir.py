"""cujit.llvm.ir: llvmlite.ir's types, constants and IRBuilder for lowering functions.

Types and constants are small Python objects (``IntType(64)``, ``DoubleType()``,
``PointerType(t)``, ``LiteralStructType([...])``, ``Constant(t, value)``); the builder a lowering
function gets is cujit's C object (_core.IRBuilder, csrc/lower/irbuilder_py.c) with llvmlite's
method names; its ``if_then`` / ``if_else`` context managers are here. Each type carries a
``_desc`` tuple the C side reads."""
from contextlib import contextmanager

from .. import _core

__all__ = ["Type", "IntType", "HalfType", "FloatType", "DoubleType", "VoidType", "PointerType",
           "LiteralStructType", "ArrayType", "FunctionType", "Constant", "IRBuilder", "Value"]

Value = _core.IRValue


class Type:
    """An LLVM type (llvmlite.ir.Type)."""
    _desc = ("void",)

    def as_pointer(self, addrspace=0):
        if addrspace:
            raise NotImplementedError("cujit.llvm.ir: address spaces are not supported")
        return PointerType(self)

    def __eq__(self, other):
        return isinstance(other, Type) and other._desc == self._desc

    def __hash__(self):
        return hash(self._desc)

    def __call__(self, value):
        return Constant(self, value)

    def __repr__(self):
        return "<cujit.llvm.ir %s>" % self


class IntType(Type):
    """llvmlite.ir.IntType(bits): an integer of 1 to 128 bits (i1 is a bool)."""
    def __init__(self, bits):
        if not isinstance(bits, int) or not 1 <= bits <= 128:
            raise ValueError("IntType: width must be an int from 1 to 128, not %r" % (bits,))
        self.width = bits
        self._desc = ("i", bits)

    def __str__(self):
        return "i%d" % self.width


class _Named(Type):
    def __str__(self):
        return self._desc[0]


class HalfType(_Named):
    """llvmlite.ir.HalfType(): a 16-bit float."""
    _desc = ("half",)


class FloatType(_Named):
    """llvmlite.ir.FloatType(): a 32-bit float."""
    _desc = ("float",)


class DoubleType(_Named):
    """llvmlite.ir.DoubleType(): a 64-bit float."""
    _desc = ("double",)


class VoidType(_Named):
    """llvmlite.ir.VoidType()."""
    _desc = ("void",)


class PointerType(Type):
    """llvmlite.ir.PointerType(pointee) (also `t.as_pointer()`), address space 0."""
    def __init__(self, pointee, addrspace=0):
        if not isinstance(pointee, Type) or addrspace:
            raise TypeError("PointerType takes an ir type (address space 0)")
        self.pointee = pointee
        self._desc = ("ptr", pointee._desc)

    def __str__(self):
        return "%s*" % self.pointee


class LiteralStructType(Type):
    """llvmlite.ir.LiteralStructType([types]): a struct of the members."""
    def __init__(self, elems):
        self.elements = tuple(elems)
        if not all(isinstance(e, Type) for e in self.elements):
            raise TypeError("LiteralStructType takes ir types")
        self._desc = ("struct", tuple(e._desc for e in self.elements))

    def __str__(self):
        return "{%s}" % ", ".join(str(e) for e in self.elements)


class ArrayType(Type):
    """llvmlite.ir.ArrayType(element, count)."""
    def __init__(self, element, count):
        self.element, self.count = element, int(count)
        self._desc = ("array", element._desc, self.count)

    def __str__(self):
        return "[%d x %s]" % (self.count, self.element)


class FunctionType(Type):
    """llvmlite.ir.FunctionType(return_type, args, var_arg=False)."""
    def __init__(self, return_type, args, var_arg=False):
        self.return_type, self.args, self.var_arg = return_type, tuple(args), bool(var_arg)
        self._desc = ("fn", return_type._desc, tuple(a._desc for a in self.args), self.var_arg)

    def __str__(self):
        return "%s (%s)" % (self.return_type, ", ".join(str(a) for a in self.args))


def _type_from_desc(desc):
    tag = desc[0]
    if tag == "i":
        return IntType(desc[1])
    if tag == "ptr":
        return PointerType(_type_from_desc(desc[1]))
    if tag == "struct":
        return LiteralStructType([_type_from_desc(d) for d in desc[1]])
    if tag == "array":
        return ArrayType(_type_from_desc(desc[1]), desc[2])
    if tag == "fn":
        return FunctionType(_type_from_desc(desc[1]), [_type_from_desc(d) for d in desc[2]],
                            desc[3])
    return {"half": HalfType, "float": FloatType, "double": DoubleType}.get(tag, VoidType)()


class Constant:
    """llvmlite.ir.Constant(type, value): an int, float, bool, None (zero) or a list for
    structs and arrays."""

    def __init__(self, typ, constant):
        if not isinstance(typ, Type):
            raise TypeError("Constant takes an ir type, not %r" % (typ,))
        self.type, self.constant = typ, constant

    def _cj_const(self):
        return self.type, self.constant

    def __repr__(self):
        return "<cujit.llvm.ir.Constant %s %r>" % (self.type, self.constant)


class IRBuilder(_core.IRBuilder):
    """llvmlite.ir.IRBuilder's API; made by cujit for a lowering function."""

    @contextmanager
    def if_then(self, pred, likely=None):
        then, after = self.append_basic_block(), self.append_basic_block()
        self.cbranch(pred, then, after)
        self.position_at_end(then)
        yield after
        if not self.basic_block.is_terminated:
            self.branch(after)
        self.position_at_end(after)

    @contextmanager
    def if_else(self, pred, likely=None):
        then, orelse, after = (self.append_basic_block(), self.append_basic_block(),
                               self.append_basic_block())
        self.cbranch(pred, then, orelse)

        @contextmanager
        def branch(block):
            self.position_at_end(block)
            yield block
            if not self.basic_block.is_terminated:
                self.branch(after)

        yield branch(then), branch(orelse)
        self.position_at_end(after)

    @property
    def module(self):
        """The module being built, for declaring LLVM intrinsics (llvm.*; libdevice's __nv_*
        in CUDA code): ``module.get_or_insert_function(fnty, name)``."""
        return _Module(self)


class _Module:
    """builder.module: llvmlite's Module, as far as declaring functions goes."""

    def __init__(self, builder):
        self._builder = builder

    def get_or_insert_function(self, fnty, name):
        return self._builder._declare(name, fnty)

    def declare_intrinsic(self, name, types=(), fnty=None):
        if fnty is None:
            raise NotImplementedError("cujit.llvm.ir: declare_intrinsic needs fnty= (the "
                                      "intrinsic's function type)")
        return self._builder._declare(name, fnty)


_core.set_ir_hooks(IRBuilder, _type_from_desc)
