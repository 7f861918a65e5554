"""numba's array struct (`make_array`) for array types, made once per type, without its search
for an `__array__` implementation.

`numba.np.arrayobj.make_array(ty)` builds a new struct class at every call, and every struct of
it looks up an `__array__` implementation for `ty` (the conversion of an array-like to its
array). numba has none for its own `types.Array`, and on not finding one its target context
refreshes itself and its typing context (loading any registry added since): intrinsics lowered
in bulk (a shell's library calls, `lib.dot`'s operands, a routine's `rt.*` calls) paid that
refresh for every array they read. `array_struct(ty)` is the class of `make_array(ty)` for a
`types.Array`, made once, whose structs take the path of `make_array`'s when that search fails:
the same instructions.
"""

from __future__ import annotations

import functools

from numba.core import types
from numba.np.arrayobj import make_array


def array_struct(ty: types.Type) -> type:
    """The struct class of arrays of type `ty`, as `make_array(ty)` (any other array-compatible
    type: `make_array`'s own).

    Args:
      ty: a numba array type.

    Returns:
      The class, called as `cls(context, builder[, value])`.
    """
    return _plain(ty) if type(ty) is types.Array else make_array(ty)


@functools.cache
def _plain(ty: types.Array) -> type:
    base = make_array(ty)

    class PlainArray(base):
        def _make_refs(self, ref):
            return super(base, self)._make_refs(ref)  # `base`'s own when no `__array__` is found

    return PlainArray
