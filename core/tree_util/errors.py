"""The pytree errors: ValueError subclasses (so code written against JAX keeps working) under
numbax's error root, one per failure, each naming its fix.
"""

from __future__ import annotations

from core.errors import NumbaxError


class PyTreeStructureError(NumbaxError, ValueError):
    """A pytree does not have the structure (or prefix structure) that was required.

    Failing code: ``tree_map(lambda a, b: a + b, {"a": 1}, {"b": 2})``. Fix: trees of one
    structure (the message names the key path where they differ).
    """


class PyTreeKeySortError(NumbaxError, ValueError):
    """A dict in a pytree has keys that cannot be sorted (e.g. mixed ``str`` and ``int``).

    Failing code: ``tree_leaves({"a": 1, 2: 3})``. Fix: keys of one sortable type
    (``{"a": 1, "2": 3}``).
    """


class PyTreeLeafCountError(NumbaxError, ValueError):
    """`PyTreeDef.unflatten` got a number of leaves different from ``num_leaves``.

    Failing code: ``tree_unflatten(tree_structure({"a": 1, "b": 2}), [1])``. Fix: pass
    ``treedef.num_leaves`` leaves, in ``tree_leaves`` order.
    """


class PyTreeRegistrationError(NumbaxError, ValueError):
    """A type was registered as a pytree node twice.

    Failing code: ``register_pytree_node(Point, flatten, unflatten)`` run twice (e.g. a module
    re-executed). Fix: register each type once, at import time of the module defining it.
    """
