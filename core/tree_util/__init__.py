"""Pytrees: nested containers flattened to a list of leaves plus a hashable structure.

The semantics copy `jax.tree_util`: tuples, lists, dicts (sorted keys), ``None`` (a node with
no children), namedtuples, ``OrderedDict`` and ``defaultdict`` are built-in nodes; other types
join through `register_pytree_node` and friends; everything else is a leaf.

This module is the public namespace (`jax.tree_util`'s names); the machinery lives in the
package's modules, bottom to top: `errors`, `keys` (key path entries, `keystr`), `registry`
(node types and their registration), `nodes` (a structure stored as nested plain tuples: a
leaf is the `_LEAF` marker and a node is ``(nodetype, aux_data, children)``, so equality and
hashing run at C speed), `prefix` (matching a tree against a prefix structure, JAX's error
messages), `treedef` (`PyTreeDef`, which wraps the root of that tuple), `guards` (jit's
structure checks as source), `flatten` (a fast path for the built-in containers, since
``jit`` flattens its arguments on every call, and a slower generic path for key paths),
`functions` (`tree_map` and the other functions of whole trees) and `partial` (`Partial`).
"""

from core.tree_util.errors import (  # noqa: F401  (numbax's error classes)
    PyTreeKeySortError,
    PyTreeLeafCountError,
    PyTreeRegistrationError,
    PyTreeStructureError,
)
from core.tree_util.flatten import (
    PyTreeRegistry,
    all_leaves,
    default_registry,
    flatten_one_level,
    flatten_one_level_with_keys,
    tree_flatten,
    tree_flatten_with_path,
    tree_leaves,
    tree_leaves_with_path,
    tree_structure,
    tree_unflatten,
)
from core.tree_util.functions import (  # noqa: F401  (flatten_prefix: for pmap's in_axes)
    flatten_prefix,
    tree_all,
    tree_broadcast,
    tree_map,
    tree_map_with_path,
    tree_reduce,
    tree_reduce_associative,
    tree_transpose,
)
from core.tree_util.guards import guard_source  # noqa: F401  (for jit's code generator)
from core.tree_util.keys import (  # noqa: F401  (KeyEntry and KeyPath: JAX's type aliases)
    DictKey,
    FlattenedIndexKey,
    GetAttrKey,
    KeyEntry,
    KeyPath,
    SequenceKey,
    keystr,
)
from core.tree_util.partial import Partial
from core.tree_util.registry import (
    is_tree_node,
    register_dataclass,
    register_pytree_node,
    register_pytree_node_class,
    register_pytree_with_keys,
    register_pytree_with_keys_class,
    register_static,
)
from core.tree_util.treedef import (
    PyTreeDef,
    treedef_children,
    treedef_is_leaf,
    treedef_tuple,
)

__all__ = [
    "DictKey",
    "FlattenedIndexKey",
    "GetAttrKey",
    "Partial",
    "PyTreeDef",
    "PyTreeRegistry",
    "SequenceKey",
    "all_leaves",
    "default_registry",
    "flatten_one_level",
    "flatten_one_level_with_keys",
    "is_tree_node",
    "keystr",
    "register_dataclass",
    "register_pytree_node",
    "register_pytree_node_class",
    "register_pytree_with_keys",
    "register_pytree_with_keys_class",
    "register_static",
    "tree_all",
    "tree_broadcast",
    "tree_flatten",
    "tree_flatten_with_path",
    "tree_leaves",
    "tree_leaves_with_path",
    "tree_map",
    "tree_map_with_path",
    "tree_reduce",
    "tree_reduce_associative",
    "tree_structure",
    "tree_transpose",
    "tree_unflatten",
    "treedef_children",
    "treedef_is_leaf",
    "treedef_tuple",
]
