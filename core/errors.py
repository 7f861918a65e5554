"""Errors that teach: one class per failure, each naming what went wrong and the fix.

Each class subclasses the matching built-in exception (`TypeError`, `ValueError`...), so plain
`except TypeError:` keeps working, like `jax.errors`.
"""

from __future__ import annotations

from typing import Any

from numbax.errors import NumbaxError

_STAGED = (
    "This happens when a value that depends on the function's arguments is used where Python "
    "needs a concrete value, inside `jit`, `vmap` or another transformation that traces the "
    "function abstractly."
)


# `jax.errors`' names: JAX's base classes, and the errors numbax cannot raise (kept so ported
# `except` clauses resolve).


class JAXTypeError(NumbaxError, TypeError):
    """Base of the type errors JAX names (`jax.errors.JAXTypeError`)."""


class JAXIndexError(NumbaxError, IndexError):
    """Base of the index errors JAX names (`jax.errors.JAXIndexError`)."""


class JaxRuntimeError(NumbaxError, RuntimeError):
    """JAX: an error of the XLA runtime. Raised, with XLA's message, for the errors numbax
    reproduces: an array passed twice to a `jit` or `pmap` call, once donated; a DLPack
    tensor with strides no contiguous array has (`jnp.from_dlpack`); a `pure_callback` whose
    callback returns another dtype than it declared.

    Failing code: ``jit(f, donate_argnums=0)(a, a)``. Fix: pass a copy (``a.copy()``) as one
    of them, or do not donate it. Failing code: ``jnp.from_dlpack(np.arange(6)[::2])``. Fix:
    pass a contiguous copy (``np.ascontiguousarray(x)``). Failing code:
    ``pure_callback(lambda v: v * 2.0, ShapeDtypeStruct((2,), jnp.int32), x)``. Fix: return
    the declared dtype.
    """


class KeyReuseError(JAXTypeError):
    """JAX: a PRNG key used twice under the key-reuse checker. Never raised (numbax has no
    key-reuse checker)."""


class InconclusiveDimensionOperation(NumbaxError):
    """JAX: a shape-polymorphic dimension comparison without an answer. Never raised (numbax
    has no symbolic shapes)."""


class ConcretizationTypeError(JAXTypeError):
    """A traced value was used where a concrete value is required.

    Failing code: ``jit(lambda a: jnp.ones(int(a.sum())))(x)`` (a shape from traced values).
    Fix: make the value static (``jit(f, static_argnums=...)``), or compute it outside `jit`.
    """

    def __init__(self, what: str, detail: str = ""):
        # JAX's first line, then why and the fixes
        super().__init__(
            f"Abstract tracer value encountered where concrete value is expected: {what}\n"
            + (f"{detail}\n{_STAGED}" if detail else _STAGED)
        )


def traced_shape(aval: object) -> str:
    """How JAX's errors name a traced value: "traced array with shape float32[2]"."""
    shape = aval.str_short(short_dtypes=False) if hasattr(aval, "str_short") else aval
    return f"traced array with shape {shape}"


def scalar_conversion(aval: object, name: str) -> ConcretizationTypeError:
    """JAX's error for `float(x)`, `int(x)` or `complex(x)` of a traced value."""
    return ConcretizationTypeError(
        traced_shape(aval),
        f"The problem arose with the `{name}` function. If trying to convert the data type of a "
        f"value, try using `x.astype({name})` or `jnp.array(x, {name})` instead.",
    )


class TracerBoolConversionError(ConcretizationTypeError):
    """`if x > 0:` (or `bool(x)`, `and`/`or`) on a traced value.

    Failing code: ``jit(lambda a: a if a.sum() > 0 else -a)(x)``. Fix:
    ``jnp.where(a.sum() > 0, a, -a)``, or ``lax.cond(a.sum() > 0, f, g, a)`` for branches.
    """

    def __init__(self, aval: object):
        # JAX's first line verbatim (programs print it), then why and the fixes
        JAXTypeError.__init__(
            self,
            f"Attempted boolean conversion of {traced_shape(aval)}.\n"
            "The truth value of a traced array was needed (bool() or an `if`/`while`/`and`/`or` "
            f"on it). {_STAGED} Fixes: compute both sides and pick with "
            "`jnp.where(cond, x, y)`; use `lax.cond(pred, true_fun, false_fun, *operands)` for "
            "branches; or, under `jit`, mark the argument static with `static_argnames=` / "
            "`static_argnums=` if it is really a configuration value.",
        )


class TracerIntegerConversionError(ConcretizationTypeError):
    """`int(x)`, `range(x)` or indexing a Python list with a traced value.

    Failing code: ``jit(lambda a, n: a * range(n)[0])(x, 2)``. Fix: mark ``n`` static,
    ``jit(f, static_argnums=1)``, or index arrays instead (``lax.dynamic_slice``).
    """

    def __init__(self, aval: object):
        JAXTypeError.__init__(  # JAX's first line, then why and the fixes
            self,
            f"The __index__() method was called on {traced_shape(aval)}\nIts integer value was "
            f"needed (`range()`, a Python list index). {_STAGED} Fixes: index arrays with the "
            "traced value instead (`x[i]`, `lax.dynamic_slice`); or mark the argument static "
            "with `static_argnames=` under `jit`.",
        )


class TracerArrayConversionError(JAXTypeError):
    """`np.asarray(x)` on a traced value.

    Failing code: ``jit(lambda a: np.sin(np.asarray(a)))(x)``. Fix: ``jnp.sin(a)`` (the
    `core.numpy` function), or move the numpy code outside the transformed function.
    """

    def __init__(self, aval: object):
        super().__init__(  # JAX's first line, then why and the fixes
            f"The numpy.ndarray conversion method __array__() was called on {traced_shape(aval)}"
            f"\n{_STAGED} Use `core.numpy` (jnp) functions instead of `numpy` ones inside "
            "transformed functions, or `jax.debug.print` to see values."
        )


class AmbiguousTruthValueError(NumbaxError, ValueError):
    """`bool(x)` (an `if`, `and`, `or`) of a traced array of more than one element (numpy's
    and JAX's words).

    Failing code: ``jit(lambda a: a if a > 0 else -a)(jnp.ones(3))``. Fix: ``(a > 0).all()``
    or ``.any()`` for one truth value, or ``jnp.where(a > 0, a, -a)`` elementwise.
    """

    def __init__(self, empty: bool = False) -> None:
        if empty:  # numpy's and JAX's words for an array of no elements
            super().__init__(
                "The truth value of an empty array is ambiguous. Use `array.size > 0` to check "
                "that an array is not empty."
            )
            return
        super().__init__(
            "The truth value of an array with more than one element is ambiguous. Use a.any() "
            "or a.all()\nOr pick elementwise with jnp.where(cond, x, y)."
        )


class TracerAttributeError(NumbaxError, AttributeError):
    """A runtime method or attribute of an Array (`block_until_ready`, `copy_to_host_async`,
    `sharding`) read on a traced value, which has none (JAX's words).

    Failing code: ``jit(lambda a: a.block_until_ready())(x)``. Fix: call it on the jitted
    function's result; query a traced value's sharding with ``jax.typeof(x)``.
    """

    def __init__(self, aval: object, name: str, kind: str):
        hint = (
            " To query sharding information on tracers, use `jax.typeof(x)`."
            if name == "sharding"
            else ""
        )
        super().__init__(
            f"The '{name}' {kind} is not available on {traced_shape(aval)}.{hint}\nUse it on "
            "the transformed function's result instead."
        )


class UnexpectedTracerError(JAXTypeError, RuntimeError):
    """A tracer escaped the transformation that created it (stored in a global, returned...).

    Failing code: ``saved = []; jit(lambda a: saved.append(a) or a)(x); saved[0] + 1``. Fix:
    return the value from the function (``y = jit(f)(x)``) instead of storing it aside.
    """

    def __init__(self, aval: object, transformation: str = "jit, grad, vmap..."):
        shape = aval.str_short(short_dtypes=False) if hasattr(aval, "str_short") else aval
        tracer = _TRACER_NAMES.get(transformation, "Tracer")
        super().__init__(  # JAX's first line (its tracer class named per transformation)
            "Encountered an unexpected tracer. A function transformed by JAX had a side "
            f"effect, allowing for a reference to an intermediate value with type {shape} "
            f"wrapped in a {tracer} to escape the scope of the transformation.\nIt is a value "
            f"from a function transformed by {transformation}, used after that transformation "
            "finished, for example stored in a global, a list or an attribute of an object. "
            "Return it from the function instead, or pass it in as an argument."
        )


class CustomVJPNondiffTracerError(UnexpectedTracerError):
    """A traced value passed to a `custom_vjp` function at one of its `nondiff_argnums` (JAX's
    `UnexpectedTracerError`).

    Failing code: ``f = custom_vjp(lambda n, x: n * x, nondiff_argnums=(0,))`` called as
    ``jit(f)(2.0, 3.0)``. Fix: pass arrays as ordinary arguments (their cotangent may be None);
    keep `nondiff_argnums` for functions, ints and configuration.
    """

    def __init__(self) -> None:
        RuntimeError.__init__(  # JAX's words, then the fix
            self,
            "Found a JAX Tracer object passed as an argument to a custom_vjp function in a "
            "position indicated by nondiff_argnums as non-differentiable. Tracers cannot be "
            "passed as non-differentiable arguments to custom_vjp functions; instead, "
            "nondiff_argnums should only be used for arguments that can't be or contain JAX "
            "tracers, e.g. function-valued arguments. In particular, array-valued arguments "
            "should typically not be indicated as nondiff_argnums.\nPass arrays as ordinary "
            "arguments (their cotangent may be None).",
        )


# JAX's tracer classes by the transformations `check_live` names
_TRACER_NAMES = {
    "jvp/grad": "JVPTracer",
    "vmap": "BatchTracer",
    "jit/make_jaxpr/grad": "DynamicJaxprTracer",
    "jit, grad, vmap...": "DynamicJaxprTracer",
}


class LeakedTracerError(NumbaxError):
    """Under `checking_leaks()` (or `check_tracer_leaks`), a traced function kept one of its
    tracers after tracing finished (JAX raises a plain `Exception`, "Leaked trace").

    Failing code::

        outs = []
        with checking_leaks():
            jit(lambda a: outs.append(a + 1))(1)

    Fix::

        # return the value instead of storing it aside
        with checking_leaks():
            outs.append(jit(lambda a: a + 1)(1))
    """

    def __init__(self, tracers: list):
        super().__init__(
            "Leaked trace DynamicJaxprTrace. Leaked tracer(s):\n"
            + "\n".join(f"{t!r}" for t in tracers)
            + "\nThe traced function stored these values (in a list, a global or an object): "
            "return them from the function instead."
        )


class ShapeError(NumbaxError, ValueError, TypeError):
    """Operand shapes that do not fit together.

    Both a ValueError and a TypeError: JAX raises TypeError for shapes that do not fit a
    primitive (shapes are part of its types: reshape, concatenate, dot_general, ...) and
    ValueError for arrays that do not broadcast, and code written for JAX catches either.

    Failing code: ``jnp.ones(3) + jnp.ones(4)``. Fix: give the operands shapes that broadcast
    (``jnp.ones(3)[:, None] + jnp.ones(4)``), or reshape/slice them to match.
    """


class ZeroSizeReshapeError(ShapeError, ZeroDivisionError):
    """A `-1` in a reshape's shape next to a zero-sized axis: the `-1` cannot be inferred.

    Also a ZeroDivisionError, JAX's class (it divides the size by the product of the other
    sizes, zero).

    Failing code: ``jnp.zeros((0, 4)).reshape(2, 0, -1)``. Fix: give every size explicitly
    (``reshape(2, 0, 4)``).
    """

    def __init__(self, old: tuple[int, ...], shape: tuple[int, ...]):
        super().__init__(
            "integer modulo by zero\n"
            f"cannot reshape array of shape {old} into shape {shape}: the other sizes' product "
            "is 0, so the -1 cannot be inferred. Give every size explicitly."
        )


class ScalarConversionError(NumbaxError, TypeError):
    """`float(x)`, `int(x)` or `complex(x)` of an array that is not a scalar (JAX's words).

    Failing code: ``float(jnp.arange(2.0))``. Fix: take one element (``x[0]``,
    ``x.item(i)``) or reduce the array first (``float(x.sum())``).
    """

    def __init__(self, ndim: int):
        super().__init__(
            f"Only scalar arrays can be converted to Python scalars; got arr.ndim={ndim}\n"
            "Take one element (x[0], x.item(i)) or reduce the array (x.sum()) first."
        )


class ScalarIndexError(NumbaxError, TypeError):
    """An array used as a Python index (a list index, `range`, `operator.index`) that is not
    an integer scalar (JAX's words).

    Failing code: ``[10, 20][jnp.array(1.0)]``. Fix: an integer scalar (``x.astype(int)``,
    ``int(x)``), or index an array instead (``jnp.asarray(lst)[x]``).
    """

    def __init__(self) -> None:
        super().__init__(
            "Only integer scalar arrays can be converted to a scalar index.\n"
            "Use an integer scalar (x.astype(int)), or index an array (jnp.asarray(lst)[x])."
        )


class ScaleTranslateArgumentError(NumbaxError, ValueError, AssertionError):
    """`jax.image.scale_and_translate`'s `scale` or `translation` does not have one entry per
    dimension of `spatial_dims`.

    Both a ValueError and an AssertionError: JAX asserts the shapes (a bare `assert`), and code
    written for JAX may catch that.

    Failing code: ``scale_and_translate(x, (8,), (0, 1), jnp.array([2.0]), jnp.array([1.0]),
    "linear")``. Fix: one scale and one translation per spatial dimension.
    """


class AxisError(NumbaxError, ValueError, IndexError):
    """An axis outside the array's dimensions.

    Both a ValueError and an IndexError, as numpy's `AxisError`: JAX raises either, by
    function (ValueError from its axis canonicalization, IndexError from a shape lookup in
    `jnp.mean`, `jnp.argmax`, `nn.standardize`...), and code written for JAX catches either.

    Failing code: ``jnp.mean(jnp.ones((2, 3)), axis=2)``. Fix: an axis in `[-ndim, ndim)`.
    """


class DTypeError(NumbaxError, TypeError):
    """Operand dtypes that do not fit together.

    Failing code: ``lax.add(jnp.ones(3, jnp.float32), jnp.ones(3, jnp.int32))`` (`lax` does
    not promote). Fix: convert one operand, ``y.astype(jnp.float32)``, or use ``jnp.add``.
    """


class UnorderedDTypeError(NumbaxError, ValueError, TypeError):
    """An operation that orders values (``lax.top_k``) got complex numbers, which have no order
    (JAX raises ValueError).

    Failing code: ``lax.top_k(jnp.array([1j, 2 + 0j]), 1)``. Fix: order by a real key,
    ``lax.top_k(jnp.abs(x), k)`` or ``x.real``, and gather with its indices.
    """


class IntegerLogSumExpError(NumbaxError, OverflowError):
    """``lax.cumlogsumexp`` of integers: its identity is -inf, which no integer holds (JAX
    raises Python's OverflowError converting it).

    Failing code: ``lax.cumlogsumexp(jnp.array([1, 2]))``. Fix: cast to a float first,
    ``lax.cumlogsumexp(x.astype(jnp.float32))``.
    """


class ArgumentOverflowError(NumbaxError, OverflowError):
    """A Python int argument of a jitted library function does not fit its dtype (JAX raises
    OverflowError parsing the argument of its jitted `randint`).

    Failing code: ``random.randint(key, (3,), 0, 2**32, dtype=jnp.uint32)`` (a Python int
    bound is int32). Fix: a bound in the int32 range, or the bound as an array of the dtype,
    ``jnp.uint32(2**32 - 1)``.
    """


class ReduceWindowTreeError(NumbaxError, ValueError, TypeError):
    """``lax.reduce_window`` whose init values, or whose computation's result, are not pytrees
    of the operands' structure (JAX raises ValueError).

    Failing code: ``lax.reduce_window((x, y), 0.0, f, (2,), (1,), 'VALID')`` (one init for two
    operands). Fix: one scalar init per operand in the same structure, ``(0.0, 0.0)``, and a
    computation that returns that structure.
    """


class ConvDimensionNumbersError(NumbaxError, TypeError):
    """Convolution ``dimension_numbers`` that do not describe the operands: not three strings,
    a string of another length than the operands' rank, 'N'/'C' ('O'/'I' in the kernel's) not
    there exactly once, repeated letters, spatial letters that differ; or operands of different
    ranks (JAX raises TypeError).

    Failing code: ``lax.conv_general_dilated(x, w, (1, 1), 'SAME',
    dimension_numbers=('NHWC', 'HWIO'))``. Fix: three strings of the operands' rank, e.g.
    ``('NHWC', 'HWIO', 'NHWC')``, or ``lax.ConvDimensionNumbers``.
    """


class ConvPaddingError(NumbaxError, ValueError):
    """Explicit convolution padding that is not a sequence of (low, high) integer pairs (JAX
    raises ValueError).

    Failing code: ``lax.conv_general_dilated(x, w, (1, 1), [(1, 1, 1), (0, 0)])``. Fix: one
    ``(low, high)`` pair of ints per spatial dimension, or 'SAME'/'VALID'/'SAME_LOWER'.
    """


class ConvStridesError(NumbaxError, TypeError):
    """Convolution ``window_strides`` that are not integers (JAX raises numpy's TypeError).

    Failing code: ``lax.conv(x, w, (1.0, 1), 'SAME')``. Fix: integer strides, ``(1, 1)``.
    """


class PreferredElementTypeError(NumbaxError, TypeError):
    """A ``preferred_element_type`` a convolution cannot accumulate in: of another kind than the
    operands (a float for integers is allowed), of other signedness, or narrower (JAX raises
    TypeError).

    Failing code: ``lax.conv(x32, w32, (1, 1), 'SAME', preferred_element_type=jnp.float16)``.
    Fix: a dtype at least as wide, or cast the result: ``lax.conv(...).astype(jnp.float16)``.
    """


class PaddingTypeError(NumbaxError, ValueError, RuntimeError):
    """A padding string other than 'VALID', 'SAME' or 'SAME_LOWER' (any case) for a
    convolution, pooling or ``lax.padtype_to_pads`` (JAX raises RuntimeError; a ValueError too).

    Failing code: ``lax.conv_general_dilated(x, w, (1,), "FULL")``. Fix: one of the three
    strings, or explicit ``(low, high)`` pairs per spatial axis, e.g. ``[(2, 2)]``.
    """


class LinalgDtypeError(NumbaxError, NotImplementedError, TypeError):
    """A matrix decomposition or solve (``qr``, ``svd``, ``cholesky``, ``eigh``, ``inv``...) of
    a 16-bit float: JAX's CPU routines (LAPACK) have none and raise NotImplementedError.

    Failing code: ``jnp.linalg.qr(jnp.ones((3, 3), jnp.float16))``, or
    ``nn.initializers.orthogonal()(key, (4, 4), jnp.float16)``. Fix: decompose in float32
    (``jnp.linalg.qr(x.astype(jnp.float32))``), or initialize in float32 and cast.
    """


class ExplicitX64DtypeError(NumbaxError, ValueError):
    """A 64-bit dtype asked for explicitly while x64 is off, under
    `jax_explicit_x64_dtypes='error'` (JAX 0.10's ValueError; 'warn', the default, truncates it
    to 32 bits with a UserWarning).

    Failing code: ``jnp.zeros(3, jnp.int64)`` in ``config.update("jax_explicit_x64_dtypes",
    "error")``. Fix: turn x64 on (``jax.enable_x64()``), or ask for the 32-bit dtype.
    """


class TypePromotionError(NumbaxError, ValueError):
    """Dtypes with no implicit promotion path (`jax.dtypes.TypePromotionError`, a ValueError).

    Only the small floats (float8, float6, float4) have none: JAX refuses to promote them so
    that precision is never changed behind the program's back. A key dtype (`key<fry>`)
    promotes with itself only (`jnp.where(p, keys, 0)`: JAX's `dtype=key<fry> is not a valid
    dtype for JAX type promotion.`).

    Failing code: ``jnp.ones(3, jnp.float8_e4m3fn) + jnp.ones(3)`` (float32). Fix: cast
    explicitly, ``x.astype(jnp.float32) + y`` (or ``x + y.astype(x.dtype)``).
    """


class RankPromotionError(NumbaxError, ValueError):
    """Operands of different ranks broadcast by a `jnp` function under
    `jax_numpy_rank_promotion='raise'` (JAX's ValueError and text).

    Failing code: ``with jax.numpy_rank_promotion('raise'): jnp.ones((4, 3)) + jnp.ones(3)``.
    Fix: give the operands one rank (``y[None, :]`` or ``jnp.expand_dims``), or allow the
    promotion (``jax.numpy_rank_promotion('allow')``).
    """

    def __init__(self, fun_name: str, shapes: Any) -> None:
        super().__init__(
            f"Operands could not be broadcast together for {fun_name} on shapes "
            f"{' '.join(map(str, shapes))} and with the config option "
            "jax_numpy_rank_promotion='raise'. For more information, see "
            "https://docs.jax.dev/en/latest/rank_promotion_warning.html."
        )


def vectorize_rank_promotion_text(shapes: Any, signature: str | None) -> str:
    """JAX's text, for both the warning and the error, of `jnp.vectorize` broadcasting
    operands whose loop dimensions have different ranks."""
    return (
        f"operands with shapes {list(shapes)} require rank promotion for jnp.vectorize "
        f"function with signature {signature}. Set the jax_numpy_rank_promotion config option "
        "to 'allow' to disable this message; for more information, see "
        "https://docs.jax.dev/en/latest/rank_promotion_warning.html."
    )


class VectorizeRankPromotionError(NumbaxError, ValueError):
    """A `jnp.vectorize` function called under `jax_numpy_rank_promotion='raise'` with
    operands whose loop (non-core) dimensions have different ranks (JAX's ValueError, text).

    Failing code: ``with jax.numpy_rank_promotion('raise'):
    jnp.vectorize(jnp.add)(jnp.zeros((2, 3)), jnp.zeros(3))``. Fix: give the operands one
    rank (``y[None]``), or allow the promotion (``jax.numpy_rank_promotion('allow')``).
    """

    def __init__(self, shapes: Any, signature: str | None) -> None:
        super().__init__(vectorize_rank_promotion_text(shapes, signature))


class RankPromotionWarning(UserWarning):
    """Operands of different ranks broadcast by a `jnp` function under
    `jax_numpy_rank_promotion='warn'` (JAX warns with a `UserWarning` and this text)."""


class ImmutableArrayError(NumbaxError, TypeError):
    """In-place assignment to an immutable array.

    Failing code: ``x[0] = 5.0``. Fix: ``x = x.at[0].set(5.0)`` (a new array).
    """

    def __init__(self) -> None:
        super().__init__(  # JAX's message verbatim: it names the fix
            "JAX arrays are immutable and do not support in-place item assignment. Instead of "
            "x[idx] = y, use x = x.at[idx].set(y) or another .at[] method: "
            "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html"
        )


class PRNGKeyError(NumbaxError, TypeError):
    """A value that is not a PRNG key (uint32[..., 2]) where `core.random` needs one.

    Failing code: ``random.normal(0, (3,))``. Fix: ``random.normal(random.key(0), (3,))``.
    """


class BatchedKeyError(PRNGKeyError, ValueError):
    """A key array of several keys given to a `core.random` function that takes one key (JAX
    raises ValueError; a PRNGKeyError, hence a TypeError, too).

    Failing code: ``random.normal(random.split(key, 4), (3,))``. Fix: map over the keys,
    ``vmap(lambda k: random.normal(k, (3,)))(keys)``.
    """


class KeyPhysicalRuleError(NumbaxError, NotImplementedError):
    """A primitive applied to key avals that has no rule on their data (`core/prims/prng.py`;
    partial: the shape primitives JAX's random functions use have one).

    Failing code: ``lax.gather`` of a key aval inside a staged random function. Fix: apply the
    primitive to ``random.key_data(keys)`` and wrap the result with ``random.wrap_key_data``.
    """


class KeyArithmeticError(NumbaxError, TypeError):
    """Arithmetic on key arrays, or between keys and numbers (JAX's messages: `add does not
    accept dtypes key<fry>, int32.`, `Cannot interpret 'key<fry>' as a data type`).

    Failing code: ``random.key(0) + 1``. Fix: keys have no arithmetic; derive new keys with
    ``random.fold_in(key, 1)`` or compute on ``random.key_data(key)``.
    """


class KeyArrayMethodError(NumbaxError, NotImplementedError):
    """A method concrete key arrays do not have (JAX's eager keys: `Cannot call abstract method
    astype`).

    Failing code: ``random.key(0).astype(jnp.uint32)``. Fix: ``random.key_data(key)`` is the
    key's uint32 data.
    """


class KeyOrderError(NumbaxError, ValueError):
    """An order of key arrays asked for (`jnp.argmax(keys)`: JAX's `Unsupported dtype for max:
    key<fry>`); keys have no order.

    Failing code: ``jnp.argmax(random.split(key, 3))``. Fix: order their data, e.g.
    ``jnp.argmax(random.key_data(keys)[:, 0])``.
    """


class KeyDTypeConversionError(NumbaxError, ValueError):
    """A key array converted to a numeric dtype, or numbers to a key dtype (`astype`).

    Failing code: ``random.key(0).astype(jnp.uint32)``. Fix: ``random.key_data(key)`` is the
    key's uint32 data, ``random.wrap_key_data(data)`` the keys of data.
    """


class KeyArrayConversionError(NumbaxError, TypeError):
    """A typed key array converted to a numpy array (keys have no numeric value).

    Failing code: ``np.asarray(random.key(0))``.
    Fix: ``np.asarray(random.key_data(random.key(0)))``.
    """


class RandomArgumentError(NumbaxError, ValueError):
    """A `core.random` argument out of its domain (dtype kind, sample count, probabilities).

    Failing code: ``random.choice(key, 3, (5,), replace=False)``. Fix: ask for at most the
    population size, or sample with ``replace=True``.
    """


class RandomArgumentTypeError(NumbaxError, TypeError):
    """A `core.random` argument of the wrong type: a non-integer dtype for `randint`, a
    non-integer scalar for `permutation` (JAX raises TypeError).

    Failing code: ``random.randint(key, (3,), 0, 10, dtype=jnp.float32)``. Fix: an integer
    dtype (``jnp.int32``), then ``.astype(jnp.float32)`` if floats are wanted.
    """


class RngBitGeneratorKeyError(NumbaxError, AssertionError, TypeError):
    """A `lax.rng_bit_generator` key that is neither `uint32[4]` nor `uint64[2]` (JAX fails
    an assertion; a TypeError too, as the key's type is wrong).

    Failing code: ``lax.rng_bit_generator(random.PRNGKey(0), (3,))`` (a threefry key is
    `uint32[2]`). Fix: a `uint32[4]` key, e.g. ``jnp.array([0, 0, 0, 1], jnp.uint32)``.
    """

    def __init__(self, got: str):
        super().__init__(
            f"rng_bit_generator requires a uint32[4] or uint64[2] key, got {got}; "
            "e.g. jnp.array([0, 0, 0, seed], jnp.uint32)."
        )


class RngUniformArgumentError(NumbaxError, ValueError):
    """`lax.rng_uniform` bounds that are not two scalars of one dtype.

    Failing code: ``lax.rng_uniform(0.0, jnp.ones(2), (3,))``. Fix: scalar bounds of one dtype.
    """


class NonConcreteBooleanIndexError(JAXIndexError):
    """Boolean-mask indexing (or nonzero/unique without `size=`) on a traced value.

    Failing code: ``jit(lambda a: a[a > 0])(x)``. Fix: ``jnp.where(a > 0, a, 0)`` (same
    shape), or a static ``size=`` for ``jnp.nonzero``/``jnp.unique``.
    """

    def __init__(self, aval: object, what: str = "Array boolean indices must be concrete"):
        super().__init__(
            f"{what}; got {aval}\nThe result's shape would depend on the values. Fixes: "
            "`jnp.where(mask, x, 0)` to keep the shape; pass a static `size=` to "
            "`jnp.nonzero`/`jnp.argwhere`/`jnp.unique`; or compute the mask outside `jit`."
        )


class UnboundAxisNameError(NumbaxError, NameError):
    """A collective (`psum`, `axis_index`...) names an axis no enclosing `vmap` binds.

    Failing code: ``lax.psum(x, "i")`` outside any mapped function. Fix:
    ``vmap(lambda a: lax.psum(a, "i"), axis_name="i")(x)`` (or `pmap`/`shard_map`).
    """

    def __init__(self, axis_name: object, collective: str | None = None):
        """
        Args:
          axis_name: the name no enclosing transformation binds.
          collective: the collective JAX's message names ("Found an unbound axis name: i. To
            fix this, please call psum ..."); None for its plain "unbound axis name: i".
        """
        self.axis_name = axis_name
        if collective is None:
            head = f"unbound axis name: {axis_name}"
        else:
            head = (
                f"Found an unbound axis name: {axis_name}. To fix this, please call "
                f"{collective} under `jax.shard_map`."
            )
        super().__init__(
            f"{head}\nCall collectives such as `lax.psum(x, {axis_name!r})` inside a `vmap`, "
            f"`pmap` or `shard_map` that binds axis_name={axis_name!r} (or stage them with "
            f"`make_jaxpr(f, axis_env=[({axis_name!r}, size)])`); check the spelling and that "
            "the call happens inside the mapped function."
        )


class CollectiveTimeoutError(NumbaxError, TimeoutError):
    """A device of a `pmap` waited too long at a collective for the other devices.

    Failing code: ``pmap(lambda x: lax.psum(pure_callback(hang, x, x), "i"), "i")`` where
    ``hang`` never returns on one device. Fix: find what keeps that device from reaching the
    collective (a host callback that blocks, a device thread taken by other work), or raise
    ``config.update("pmap_collective_timeout", seconds)`` (``NUMBAX_PMAP_COLLECTIVE_TIMEOUT``)
    if the devices are legitimately that far apart.
    """

    def __init__(self, rank: int, size: int, seconds: float):
        super().__init__(
            f"device {rank} of a pmap over {size} devices waited more than "
            f"{seconds:g} s at a collective (psum, pmax, pmin or "
            "all_gather) for the other devices, and gave up: one of them never reached it (a "
            "host callback that blocks?). Every device stopped. If the devices are "
            "legitimately that far apart, raise config.update('pmap_collective_timeout', "
            "seconds) or NUMBAX_PMAP_COLLECTIVE_TIMEOUT."
        )
        self.rank = rank


class CustomDerivativeError(NumbaxError, TypeError):
    """A `custom_jvp`/`custom_vjp` rule that is missing or returns the wrong structure.

    Failing code: ``f = custom_jvp(lambda a: a * 2); jvp(f, (1.0,), (1.0,))`` with no
    ``f.defjvp(...)``. Fix: define the rule (``@f.defjvp``) returning ``(primal_out,
    tangent_out)`` shaped like the function's output.
    """


class CustomRuleMissingError(CustomDerivativeError, AttributeError):
    """A `custom_jvp`/`custom_vjp` function called before its rule was defined (JAX's
    `AttributeError`).

    Failing code: ``f = custom_jvp(jnp.sin); f(1.0)``. Fix: define the rule first
    (``f.defjvp(rule)`` or ``f.defvjp(fwd, bwd)``).
    """


class CustomCotangentShapeError(NumbaxError, ValueError):
    """A `custom_vjp` backward rule returned a cotangent whose shape is not its argument's
    (JAX's `ValueError`).

    Failing code: ``bwd = lambda res, g: (jnp.ones(2),)`` for a scalar argument. Fix: return
    one cotangent per argument, shaped like it.
    """


class ScaledMatmulShapeError(NumbaxError, ValueError):
    """`nn.scaled_matmul` operands or scales of incompatible shapes.

    Failing code: ``scaled_matmul(a, b, a_scales, b_scales)`` with ``a`` (2, 3, 4) and ``b``
    (2, 2, 2). Fix: ``a`` (B, M, K), ``b`` (B, N, K), scales (B, M, K_s) and (B, N, K_s) with
    ``K % K_s == 0``.
    """


class ScaledDotGeneralBackendError(NumbaxError, NotImplementedError):
    """`nn.scaled_dot_general` with block-scale `configs` on CPU: JAX runs it with cuDNN only.

    Failing code: ``nn.scaled_dot_general(a, b, dims, configs=[get_scaled_dot_general_config(
    "mxfp8")] * 3)``. Fix: quantize the operands yourself and call `nn.scaled_matmul`, which
    numbax computes on CPU, or pass ``configs=None`` for a plain `lax.dot_general`.
    """

    def __init__(self) -> None:
        super().__init__(
            "MLIR translation rule for primitive 'scaled_matmul' not found for platform cpu "
            "(block-scaled dots run on cuDNN only); quantize the operands and call "
            "nn.scaled_matmul, or pass configs=None for lax.dot_general"
        )


class CustomVmapRuleMissingError(NumbaxError, AttributeError):
    """A `custom_vmap` function called before its rule was set with `def_vmap`.

    Failing code: ``f = custom_vmap(lambda a: a); f(1.0)``. Fix: ``@f.def_vmap`` a rule
    ``rule(axis_size, in_batched, *args) -> (out, out_batched)`` before calling ``f``.
    """

    def __init__(self, name: str) -> None:
        super().__init__(
            f"No batching rule defined for custom_vmap function {name} using def_vmap. "
            "Define one with `@f.def_vmap` (rule(axis_size, in_batched, *args) -> "
            "(out, out_batched))."
        )


class CustomVmapRuleOutputError(NumbaxError, ValueError):
    """A `custom_vmap` rule returned an output, or an `out_batched`, of the wrong structure.

    Failing code: a rule returning ``(x, x), True`` for a function of one output. Fix: return
    ``(out, out_batched)`` with ``out`` structured like the function's output and
    ``out_batched`` a pytree of bools of the same structure.
    """


class CustomVJPForwardModeError(NumbaxError, TypeError):
    """Forward-mode differentiation (`jvp`, `jacfwd`, `linearize`) of a `custom_vjp` function.

    Failing code: ``jvp(g, (1.0,), (1.0,))`` for a ``custom_vjp`` ``g``. Fix: ``grad``/``vjp``/
    ``jacrev``, or define ``g`` with ``custom_jvp``.
    """

    def __init__(self) -> None:
        # JAX's text; the fix as a note, shown in tracebacks but not in str(error)
        super().__init__("can't apply forward-mode autodiff (jvp) to a custom_vjp function.")
        self.add_note(
            "It only defines a reverse-mode rule. Use `grad`/`vjp`/`jacrev`, or define the "
            "function with `custom_jvp` instead (reverse mode then comes from transposing its "
            "jvp rule)."
        )


class GradTypeError(NumbaxError, TypeError):
    """`grad` of a function with a non-scalar or non-float output, or of integer inputs.

    Failing code: ``grad(lambda a: a * 2)(jnp.ones(3))``. Fix: reduce the output to a scalar
    (``(a * 2).sum()``), or use ``jacrev``/``vjp`` for non-scalar outputs.
    """


class VmapAxesError(NumbaxError, ValueError):
    """`vmap` in_axes/out_axes that do not fit the arguments or outputs.

    Failing code: ``vmap(f, in_axes=1)(jnp.ones(3))`` (a 1-d argument has no axis 1). Fix: map
    an axis the argument has (``in_axes=0``), or ``None`` to broadcast it.
    """


class VmapSizeError(VmapAxesError):
    """`vmap` inputs whose mapped axes have different sizes (or no size at all).

    Failing code: ``vmap(lambda a, b: a + b)(jnp.ones(3), jnp.ones(4))``. Fix: give the mapped
    axes one size, or ``in_axes=(0, None)`` to broadcast an argument.
    """


class InvalidJaxTypeError(NumbaxError, TypeError):
    """A value that is not an array, a scalar or a tracer where an array is needed (an
    argument `vmap` maps, an operand); JAX's message.

    Failing code: ``vmap(lambda m, x: m(x))(module, xs)``. Fix: pass arrays (or pytrees of
    them), close over other values or give them ``in_axes=None``.
    """

    def __init__(self, x: Any, quote_type: bool = True, message: str | None = None):
        # JAX quotes the type in most places; `dispatch.check_arg` (grad's inputs) does not,
        # nor do its messages for strings; `message` replaces them (vmap's outputs...).
        if message is not None:
            super().__init__(message)
        elif not quote_type:
            super().__init__(f"Argument '{x}' of type {type(x)} is not a valid JAX type.")
        elif isinstance(x, str):
            super().__init__(f"Argument '{x}' of type {type(x)} is not a valid JAX type")
        else:
            super().__init__(f"Argument '{x}' of type '{type(x)}' is not a valid JAX type")


class InvalidInputException(InvalidJaxTypeError):
    """`vjp` of a value that is not an array or a scalar (JAX's class for it, a `TypeError`).

    Failing code: ``vjp(jnp.sin, "a")``. Fix: pass arrays (or pytrees of them), and close over
    other values.
    """


class VmapOutAxesTypeError(NumbaxError, TypeError):
    """`vmap` out_axes with a leaf that is not an int or None.

    Failing code: ``vmap(f, out_axes="0")``. Fix: ``out_axes=0`` (or a pytree of ints and
    Nones shaped like the output).
    """


class VmapInAxesTypeError(NumbaxError, TypeError):
    """`vmap` in_axes that is not an int, None, or a tuple/list with one entry per argument.

    Failing code: ``vmap(f, in_axes="0")``. Fix: ``in_axes=0`` (or ``(0, None)``: one entry
    per positional argument).
    """


class VjpCotangentError(NumbaxError, ValueError):
    """The function returned by `vjp` got a cotangent unlike the differentiated output.

    Failing code: ``y, f_vjp = vjp(lambda a: a * 2, jnp.ones(3)); f_vjp(jnp.ones(4))``. Fix:
    pass a cotangent of the output's shape and dtype, ``f_vjp(jnp.ones_like(y))``.
    """


class PackageShadowedError(NumbaxError, ImportError):
    """A numbax top-level name (``train``, ``datasets``, ...) resolves to another module.

    Raised by ``core.packages.check_numbax_packages(strict=True)`` (the examples call it); the
    message names the module that shadows numbax's package and what to do.

    Failing code: ``python -m examples.mnist.main`` run from a folder holding your own
    ``train.py``. Fix: rename that file (``train_mnist.py``), or use separate environments
    when HuggingFace's ``datasets`` is installed.
    """


class PackageShadowingWarning(UserWarning):
    """Warned when ``import core`` finds a numbax top-level name shadowed (see
    `PackageShadowedError`); ``import train`` / ``import datasets`` would get the other module."""


class ProfilerError(NumbaxError, RuntimeError):
    """`core.profiler` used out of order (a second `start_trace`, `stop_trace` without one).

    Failing code: ``core.profiler.stop_trace()`` with no trace started. Fix: pair the calls,
    or use ``with core.profiler.trace(log_dir):``.
    """


# Meshes and named shardings (`core/mesh.py`, `core/named_sharding.py`).


class MeshShapeError(NumbaxError, ValueError):
    """A mesh whose devices do not fit its shape or axis names.

    Failing code: ``core.make_mesh((3,), ("data",))`` on 2 devices. Fix: a shape whose product
    is the device count (``core.device_count()``), one axis name per mesh dimension.
    """


class NamedShardingArgumentError(NumbaxError, TypeError, AttributeError):
    """`NamedSharding` given something other than a `Mesh` or a `PartitionSpec` (JAX 0.10
    fails reading it: an `AttributeError` for a list of devices or a tuple spec, a
    `TypeError` for None).

    Failing code: ``NamedSharding(mesh, ("data",))``. Fix: ``NamedSharding(mesh, P("data"))``;
    a mesh from ``core.make_mesh`` or ``Mesh(devices, names)`` rather than a device list.
    """


class MeshAxisNotFoundError(NumbaxError, ValueError):
    """A `PartitionSpec` names an axis the mesh does not have.

    Failing code: ``device_put(x, NamedSharding(mesh, P("model")))`` on a mesh with only
    ``"data"``. Fix: name one of the mesh's axes, ``P("data")``, or ``None`` to replicate.
    """

    def __init__(self, name: Any, spec: Any, axis_names: tuple) -> None:
        super().__init__(
            f"Resource axis: {name} of {spec} is not found in mesh: {axis_names}. Use one of "
            "the mesh's axis names (or None to replicate that array axis)."
        )


class DuplicateSpecError(NumbaxError, ValueError):
    """A `PartitionSpec` maps one mesh axis to two array axes.

    Failing code: ``NamedSharding(mesh, P("data", "data"))``. Fix: each mesh axis at most once,
    e.g. ``P("data", None)``.
    """

    def __init__(self, spec: Any, names: list) -> None:
        super().__init__(
            "A single NamedSharding spec specification can map every mesh axis to at most one "
            f"positional dimension, but {spec} has duplicate entries for "
            f"{', '.join(sorted(f'`{n}`' for n in names))}"
        )


class ShardingTypeError(NumbaxError, Exception):
    """The shardings in the types of an operation's operands (over `Explicit` mesh axes) give
    its result no legal sharding (JAX's `ShardingTypeError`); the subclasses say how.

    Failing code: ``x + y`` with ``x: f32[4@X,4]`` and ``y: f32[4,4@X]``. Fix: reshard an
    operand first, or compute it in ``auto_axes(f, out_sharding=...)``.
    """


class IllegalShardingError(ShardingTypeError):
    """An operation on arrays sharded over `Explicit` mesh axes whose result would use a mesh
    axis twice.

    Failing code: ``x + y`` with ``x: f32[4@X,4]`` and ``y: f32[4,4@X]``. Fix: reshard one
    operand first (``reshard(y, P('X', None))``), or compute it in `auto_axes` with an
    ``out_sharding``.
    """

    def __init__(self, name: str, inputs: list[str], result: str) -> None:
        super().__init__(
            f"{name} operation with inputs: {', '.join(inputs)} produces an illegally sharded "
            f"result: {result}"
        )
        self.add_note(
            "Reshard an operand so that each mesh axis shards one result axis "
            "(jax.sharding.reshard), or compute it in jax.sharding.auto_axes(f, "
            "out_sharding=...)."
        )


class IncompatibleShardingsError(ShardingTypeError):
    """An elementwise operation on arrays whose same axis is sharded over different `Explicit`
    mesh axes.

    Failing code: ``x + y`` with ``x: f32[8@X]`` and ``y: f32[8@Y]``. Fix: reshard one operand
    to the other's sharding first.
    """

    def __init__(self, name: str, specs: list[tuple]) -> None:
        super().__init__(
            f"{name} got incompatible shardings for broadcasting: {', '.join(map(str, specs))}."
        )
        self.add_note(
            "Reshard one operand to the other's sharding first (jax.sharding.reshard), or "
            "compute it in jax.sharding.auto_axes(f, out_sharding=...)."
        )


class AmbiguousContractionError(ShardingTypeError):
    """A `dot_general` over `Explicit` mesh axes contracting two sharded axes, without an
    `out_sharding`: how its partial sums are sharded is ambiguous.

    Failing code: ``a @ b`` with ``a: f32[8,8@X]`` and ``b: f32[8@X,8]``. Fix:
    ``jnp.dot(a, b, out_sharding=P('X', None))``.
    """

    def __init__(self, lhs: tuple, rhs: tuple) -> None:
        super().__init__(
            "Contracting dimensions are sharded and it is ambiguous how the output should be "
            "sharded. Please specify the output sharding via the `out_sharding` parameter. "
            f"Got lhs_contracting_spec={lhs} and rhs_contracting_spec={rhs}"
        )


class InconsistentDotShardingError(ShardingTypeError):
    """A `dot_general` over `Explicit` mesh axes whose operands shard a batch or contracted
    axis over different mesh axes.

    Failing code: ``a @ b`` with ``a: f32[8,8@Y]`` and ``b: f32[8@X,8]``. Fix: reshard one
    operand so the contracted (or batch) axes agree, or give ``out_sharding=``.
    """

    def __init__(self, what: str, lhs: tuple, rhs: tuple) -> None:
        if what == "batch":
            text = "lhs batch dimensions and rhs batch dimensions to have the consistent sharding"
        else:
            text = "contracting dimensions to have consistent sharding"
        super().__init__(f"dot_general requires {text}, got {lhs} and {rhs}.")


class ReshapeShardingError(ShardingTypeError):
    """A reshape of an array sharded over `Explicit` mesh axes that neither splits one axis
    nor merges adjacent ones the mesh axes divide: its result's sharding is ambiguous.

    Failing code: ``x.reshape(4, 16)`` with ``x: f32[8@X,8@Y]``. Fix:
    ``jnp.reshape(x, (4, 16), out_sharding=P('X', None))``.
    """

    def __init__(self, operand: str, new_sizes: tuple) -> None:
        super().__init__(
            "This reshape is not supported. Please specify the sharding of the output via the "
            f"`out_sharding` argument of jax.lax.reshape. Got operand type: {operand}, new "
            f"sizes: {new_sizes}"
        )


class AutoAxisShardingError(NumbaxError, ValueError):
    """`reshard` (or an `out_sharding`) naming a mesh axis that is `Auto` or `Manual`: only
    `Explicit` axes are part of array types.

    Failing code: ``reshard(x, P('X'))`` with ``jax.set_mesh(mesh)`` of `Auto` axes. Fix:
    ``jax.device_put(x, P('X'))`` (or ``with_sharding_constraint`` under ``jit``), or a mesh
    of `Explicit` axes (``jax.make_mesh(..., axis_types=(AxisType.Explicit,))``).
    """

    def __init__(self, where: str, spec: Any, name: str, axis_type: Any) -> None:
        super().__init__(
            f"PartitionSpec passed to {where} cannot contain axis names that are of type Auto "
            f"or Manual. Got PartitionSpec: {spec} with axis name: {name} of type: "
            f"AxisType.{axis_type.name}."
        )
        self.add_note(
            "Place it with device_put (or with_sharding_constraint under jit), or make the "
            "axis Explicit (jax.make_mesh(..., axis_types=...), jax.sharding.explicit_axes)."
        )


class ExplicitAxisConstraintError(NumbaxError, ValueError):
    """`with_sharding_constraint` naming an `Explicit` mesh axis: those are part of the
    array's type, changed by `reshard`, not constrained.

    Failing code: ``lax.with_sharding_constraint(x, NamedSharding(jax.make_mesh((8,), ("i",)),
    P("i")))`` (`make_mesh`'s axes are Explicit). Fix: ``jax.sharding.reshard(x, P("i"))``,
    or a mesh of Auto axes (``make_mesh(..., axis_types=(AxisType.Auto,))``).
    """

    def __init__(self, spec: Any, abstract_mesh: Any) -> None:
        super().__init__(
            "The spec of NamedSharding passed to with_sharding_constraint can only refer to "
            f"Auto axes of the mesh. Got spec={spec!r} and mesh={abstract_mesh!r}. You probably "
            "meant to use `reshard` API?"
        )


class DeviceAndShardingError(NumbaxError, ValueError):
    """Both `device=` and `out_sharding=` given to an array-creating function (JAX's
    "Only one of `device` or `out_sharding` can be set").

    Failing code: ``jnp.zeros(3, device=jax.devices()[0], out_sharding=P())``. Fix: pass one
    of them (``device=`` takes a device or a sharding; ``out_sharding=`` a `PartitionSpec`
    over the current mesh or a `NamedSharding`).
    """

    def __init__(self, device: Any, out_sharding: Any) -> None:
        super().__init__(
            "Only one of `device` or `out_sharding` can be set. Got "
            f"device={device!r} and out_sharding={out_sharding!r}"
        )


class ShardingShapeError(NumbaxError, ValueError):
    """An array that the sharding cannot split (too few axes, or sizes not divisible).

    Failing code: ``device_put(jnp.ones(()), NamedSharding(mesh, P("data")))`` (a 0-d array
    has no axis to split). Fix: a spec no longer than the array's rank, splitting axes whose
    sizes the mesh axis sizes divide.
    """


class IndivisibleError(ShardingShapeError):
    """`NamedSharding.shard_shape` of a shape whose sizes the sharding cannot split evenly
    (JAX's class of that name).

    Failing code: ``NamedSharding(mesh, P("a")).shard_shape((3, 8))`` with ``mesh.shape["a"]
    == 2``. Fix: sizes the mesh axes divide (pad the array), or another spec.
    """


class NoMeshError(NumbaxError, ValueError):
    """A bare `PartitionSpec` was given where a mesh is needed, and no mesh is set.

    Failing code: ``device_put(x, P("data"))`` with no mesh set. Fix: ``core.set_mesh(mesh)``
    first, or ``device_put(x, NamedSharding(mesh, P("data")))``.
    """

    def __init__(self, where: str) -> None:
        super().__init__(
            f"{where} got a PartitionSpec but no mesh is set: set one with "
            "`core.set_mesh(mesh)` (or `with core.sharding.use_mesh(mesh):`), or pass "
            "`NamedSharding(mesh, spec)` instead."
        )


class ShardMapSpecError(NumbaxError, ValueError):
    """`shard_map` in_specs/out_specs that do not fit the mesh or the arguments.

    Failing code: ``shard_map(f, mesh=mesh, in_specs=(P("model"),), out_specs=P("data"))``
    on a mesh with only ``"data"``. Fix: specs that name the mesh's axes, one per argument.
    """


class ShardMapOutSpecError(ShardMapSpecError):
    """A `shard_map` output varies along a mesh axis its out_specs entry leaves out.

    Failing code: ``shard_map(lambda a: a, mesh=mesh, in_specs=P("data"), out_specs=P())``
    (each block differs, the output claims to be replicated). Fix: name the axis in
    out_specs (``P("data")``), reduce over it first (``lax.psum(a, "data")``), or pass
    ``check_vma=False``.
    """


class JaxprTypeError(NumbaxError, TypeError):
    """A malformed jaxpr (an internal error: please report it with the printed jaxpr); raised
    by `core.ir.typecheck`, as `jax.errors.JaxprTypeError`."""


class SliceWithArrayIndexError(NumbaxError, NotImplementedError):
    """An index mixing `jax.ds(...)` (a `Slice`) with integer-array indices, which numbax
    does not gather in one step (JAX does).

    Failing code: ``x[jax.ds(i, 2), jnp.array([0, 2])]``. Fix: index in two steps,
    ``x[jax.ds(i, 2)][:, jnp.array([0, 2])]``.
    """

    def __init__(self) -> None:
        super().__init__(
            "jax.ds(...) together with integer-array indices is not supported; index in two "
            "steps: x[jax.ds(i, n)][:, idx]."
        )


class AxisIndexGroupsError(NumbaxError, NotImplementedError):
    """A collective over a `vmap` axis given `axis_index_groups` (as in JAX, groups are only
    for the axes of `pmap`).

    Failing code: ``vmap(lambda a: lax.psum(a, "i", axis_index_groups=[[0, 1], [2, 3]]),
    axis_name="i")(x)``. Fix: `pmap` the function, or pick each group's elements with
    ``lax.axis_index`` and ``jnp.where`` before a whole-axis collective.
    """

    def __init__(self, name: str):
        super().__init__(
            "axis_index_groups not supported in vmap collectives. Please open a feature "
            f"request!\nlax.{name} over a vmap axis: pmap the function instead, or pick each "
            "group's elements with lax.axis_index and jnp.where before a collective over the "
            "whole axis."
        )


class AxisIndexGroupsCoverError(NumbaxError, ValueError):
    """`axis_index_groups` that do not cover the axis' indices exactly once.

    Failing code: ``lax.psum(a, "i", axis_index_groups=[[0, 1], [1, 2]])`` on 4 devices. Fix:
    groups that together hold each index 0 .. size - 1 of the axis exactly once, e.g.
    ``[[0, 1], [2, 3]]``.
    """

    def __init__(self, groups: object, size: int | None = None):
        where = "" if size is None else f" 0..{size - 1} of the axis of size {size}"
        super().__init__(
            f"axis_index_groups must cover all indices exactly once: got {groups}; give "
            f"groups that together hold each index{where} once, e.g. [[0, 1], [2, 3]]."
        )


class AxisIndexGroupSizeError(NumbaxError, ValueError):
    """Groups of different sizes for a collective whose result has the group's size
    (`all_gather`, `psum_scatter`, `all_to_all`).

    Failing code: ``lax.all_gather(a, "i", axis_index_groups=[[0, 1, 2], [3]])``. Fix: groups
    of one size, e.g. ``[[0, 1], [2, 3]]``.
    """

    def __init__(self, name: str, groups: object):
        super().__init__(
            f"lax.{name}: axis_index_groups must all be the same size, got {groups}; its "
            "result has one piece per member of a group, so give groups of one size."
        )


class IncompatibleDevicesError(NumbaxError, ValueError):
    """A computation given arrays committed to different devices (JAX's "Received incompatible
    devices for jitted computation"), or a jitted function given an argument committed to
    devices its `out_shardings` leave out.

    Failing code: ``device_put(x, devices()[1]) + device_put(y, devices()[2])``, or
    ``jit(f, out_shardings=SingleDeviceSharding(devices()[0]))(device_put(x, devices()[1]))``.
    Fix: put the arguments on one device (``device_put(y, x.device)``), or give
    ``out_shardings`` over the argument's devices.
    """


class DeletedArrayError(NumbaxError, RuntimeError):
    """An array read after `x.delete()` dropped its buffer (JAX's "Array has been deleted").

    Failing code: ``x.delete(); x + 1``. Fix: read the array before deleting it, or delete a
    copy (``y = x.copy(); y.delete()``) and keep using ``x``.
    """

    def __init__(self, shape: str):
        super().__init__(
            f"Array has been deleted with shape={shape}. `delete()` dropped its buffer: read "
            "it before deleting it, or keep an array that was not deleted."
        )


class NonlinearTransposeError(NumbaxError, AssertionError):
    """A function transposed as linear multiplies two of its linear inputs (JAX's transpose
    rule fails an assertion).

    Failing code: ``linear_transpose(lambda x, y: x * y, 1.0, 1.0)(1.0)`` or
    ``linear_transpose(lambda x: x * x, 1.0)``. Fix: transpose a function linear in its
    arguments (close over the factors that are constants, ``lambda x: x * y``), or use
    ``vjp`` for a nonlinear function.
    """


class NonlinearDivTransposeError(NumbaxError, RuntimeError):
    """A function transposed as linear divides by a value that depends on its linear input
    (JAX's `RuntimeError`).

    Failing code: ``linear_transpose(lambda x: 1.0 / x, 1.0)(1.0)``. Fix: transpose a function
    linear in its arguments, or use ``vjp`` for a nonlinear one.
    """


class PrimitiveRuleError(NumbaxError, NotImplementedError):
    """A primitive lacks the rule a transformation needs (JAX raises `NotImplementedError`).

    Failing code: a primitive from ``jax.extend.core.Primitive("multiply_add")`` called before
    ``multiply_add_p.def_impl(f)``, traced by ``jit``/``make_jaxpr`` without
    ``def_abstract_eval``, or differentiated/batched without a rule. Fix: define the rule the
    message names (``def_impl``, ``def_abstract_eval``, ``ad.primitive_jvps[p] = rule`` or
    ``ad.defjvp``, ``ad.primitive_transposes[p] = rule``, ``batching.primitive_batchers[p] =
    rule``).
    """

    _FIXES = {
        "impl": ("Evaluation rule", "define it with `{p}.def_impl(f)` (numpy arrays in, out)"),
        "abstract_eval": (
            "Abstract evaluation",
            "define it with `{p}.def_abstract_eval(f)` (ShapedArrays in, ShapedArray out)",
        ),
        "jvp": (
            "Differentiation rule",
            "define it with `ad.primitive_jvps[{p}] = rule` or `ad.defjvp({p}, ...)`",
        ),
        "transpose": (
            "Transpose rule (for reverse-mode differentiation)",
            "define it with `ad.primitive_transposes[{p}] = rule`: it is applied to a value "
            "that depends linearly on the input",
        ),
        "batch": ("Batching rule", "define it with `batching.primitive_batchers[{p}] = rule`"),
    }

    def __init__(self, prim: str, rule: str):
        what, fix = self._FIXES[rule]
        super().__init__(f"{what} for '{prim}' not implemented: {fix.format(p=f'{prim}_p')}")


class PadReflectTypeError(NumbaxError, ValueError, AssertionError):
    """`jnp.pad`'s `reflect_type` other than "even" or "odd" in mode "reflect" or
    "symmetric".

    Both a ValueError and an AssertionError: JAX asserts it (a bare `assert`), and code
    written for JAX may catch that.

    Failing code: ``jnp.pad(x, 1, mode="reflect", reflect_type="bad")``. Fix:
    ``reflect_type="even"`` (the default) or ``"odd"``.
    """

    def __init__(self, reflect_type: Any) -> None:
        super().__init__(
            f"reflect_type must be 'even' or 'odd', got {reflect_type!r}\n"
            "Use reflect_type='even' (mirror the values) or 'odd' (mirror them about the edge)."
        )


class MultiIndexLengthError(NumbaxError, ValueError, AssertionError):
    """`jnp.ravel_multi_index` given a number of coordinate arrays other than the number of
    dimensions.

    Both a ValueError and an AssertionError: JAX asserts it, and code written for JAX may
    catch that.

    Failing code: ``jnp.ravel_multi_index((i,), (3, 4))``. Fix: one coordinate array per
    dimension, ``jnp.ravel_multi_index((i, j), (3, 4))``.
    """

    def __init__(self, got: int, ndim: int) -> None:
        super().__init__(
            f"len(multi_index)={got} != len(dims)={ndim}\n"
            "Pass one coordinate array per dimension of dims."
        )
