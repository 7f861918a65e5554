"""`core.lax`: the lax-style API (like `jax.lax`), one namespace over every primitive family.

The functions live next to their primitives in `core/prims/`; this package re-exports them
and adds the few thin compositions `jax.lax` users expect (`clamp`, `dot`, `iota`, `full`,
`square`, `expand_dims`...), defined in `core/lax/composites.py`. Operands must already agree in
shape and dtype (as in `jax.lax`); `core.numpy` is the broadcasting, promoting layer.
"""

from core.api import stop_gradient
from core.lax.composites import (
    broadcast, broadcasted_iota, clamp, collapse, dot, expand_dims, full, index_in_dim, iota,
    reciprocal, reshape, scatter_add, scatter_max, scatter_min, scatter_mul, square, squeeze,
    zeros_like_array,
)
from core.prims.collectives import all_gather, axis_index, axis_size, pmax, pmean, pmin, psum
from core.prims.control_flow import (
    BranchTypeError, CarryTypeError, ScanLengthError, WhileLoopReverseModeError, cond, fori_loop,
    map, scan, switch, while_loop,
)
from core.prims.conv import (
    ConvDimensionNumbers, Precision, conv, conv_dimension_numbers, conv_general_dilated,
    conv_general_permutations, conv_shape_tuple, conv_transpose, conv_with_general_padding,
    padtype_to_pads,
)
from core.prims.elementwise import (
    abs, acos, acosh, add, asin, asinh, atan, atan2, atanh, bitwise_and, bitwise_not,
    bitwise_or, bitwise_xor, cbrt, ceil, cos, cosh, digamma, div, eq, erf, erf_inv, exp, exp2,
    expm1, floor, full_like, ge, gt, integer_pow, is_finite, le, lgamma, log, log1p, logistic,
    lt, max, min, mul, ne, neg, population_count, pow, rem, round, rsqrt, select, select_n,
    shift_left, shift_right_arithmetic, shift_right_logical, sign, sin, sinh, sqrt, sub, tan,
    tanh,
)
from core.prims.gather import (
    dynamic_slice, dynamic_slice_in_dim, dynamic_update_slice, dynamic_update_slice_in_dim,
    gather, scatter,
)
from core.prims.indexing import concatenate, pad, slice, slice_in_dim
from core.prims.linalg import dot_general
from core.prims.random_bits import bitcast_convert_type
from core.prims.reductions import (
    argmax, argmin, reduce_and, reduce_max, reduce_min, reduce_or, reduce_prod, reduce_sum,
)
from core.prims.rev import rev
from core.prims.shapes import broadcast_in_dim, convert_element_type, transpose
from core.prims.sorting import cummax, cummin, cumprod, cumsum, sort, sort_key_val, top_k
from core.prims.windows import (
    reduce_window, reduce_window_max, reduce_window_min, reduce_window_sum,
)

__all__ = [
    "BranchTypeError", "CarryTypeError", "ConvDimensionNumbers", "Precision", "ScanLengthError",
    "WhileLoopReverseModeError", "abs", "acos", "acosh", "add", "all_gather", "argmax", "argmin",
    "asin", "asinh", "atan", "atan2", "atanh", "axis_index", "axis_size", "bitcast_convert_type",
    "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "broadcast", "broadcast_in_dim",
    "broadcasted_iota", "cbrt", "ceil", "clamp", "collapse", "concatenate", "cond", "conv",
    "conv_dimension_numbers", "conv_general_dilated", "conv_general_permutations",
    "conv_shape_tuple", "conv_transpose", "conv_with_general_padding", "convert_element_type",
    "cos", "cosh", "cummax", "cummin", "cumprod", "cumsum", "digamma", "div", "dot",
    "dot_general", "dynamic_slice", "dynamic_slice_in_dim", "dynamic_update_slice",
    "dynamic_update_slice_in_dim", "eq", "erf", "erf_inv", "exp", "exp2", "expand_dims",
    "expm1", "floor", "fori_loop", "full", "full_like", "gather", "ge", "gt", "index_in_dim",
    "integer_pow", "iota", "is_finite", "le", "lgamma", "log", "log1p", "logistic", "lt", "map",
    "max", "min", "mul", "ne", "neg", "pad", "padtype_to_pads", "pmax", "pmean", "pmin",
    "population_count", "pow", "psum", "reciprocal", "reduce_and", "reduce_max", "reduce_min",
    "reduce_or", "reduce_prod", "reduce_sum", "reduce_window", "reduce_window_max",
    "reduce_window_min", "reduce_window_sum", "rem", "reshape", "rev", "round", "rsqrt", "scan",
    "scatter", "scatter_add", "scatter_max", "scatter_min", "scatter_mul", "select", "select_n",
    "shift_left", "shift_right_arithmetic", "shift_right_logical", "sign", "sin", "sinh",
    "slice", "slice_in_dim", "sort", "sort_key_val", "sqrt", "square", "squeeze",
    "stop_gradient", "sub", "switch", "tan", "tanh", "top_k", "transpose", "while_loop",
    "zeros_like_array",
]
