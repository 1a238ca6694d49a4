"""cujit.cuda.cudadecl (numba.cuda.cudadecl): the CUDA target's typing registry, for the
low-level extension API: ``registry.register_attr`` takes an AttributeTemplate whose
attributes are typed in CUDA code only; ``register_global`` / ``register`` a function
template (AbstractTemplate, ConcreteTemplate) typing calls in CUDA code only."""
from ..core import lowlevel as _lowlevel


class Registry:
    """numba's typing Registry for the CUDA target."""

    def register_attr(self, template):
        return _lowlevel.infer_getattr(template, target="cuda")

    def register(self, template):
        from ..core.typing import templates
        if not (isinstance(template, type) and issubclass(template, templates.FunctionTemplate)):
            return self.register_attr(template)
        templates._register_template(template.key, template, target="cuda")
        return template

    def register_global(self, val=None, typ=None, **kwargs):
        from ..core.typing.templates import infer_global
        return infer_global(val, typ, target="cuda", **kwargs)


registry = Registry()
register_attr = registry.register_attr
