"""`jit`'s API as JAX's (`core/jit/api.py`): static and donated argument specs and their
errors, retracing on static values of another type, inlining, `eval_shape`, the repr, and
the error for a returned non-array. Expected values and messages are JAX 0.10.2's."""

import pytest

import core
import core.numpy as jnp


def test_jit_of_a_non_callable_is_jaxs_type_error():
    for bad in (None, 1.0, "f"):
        with pytest.raises(TypeError, match=f"^Expected a callable value, got {bad}"):
            core.jit(bad)
    # no function at all: a decorator (JAX's too)
    assert core.jit(static_argnames="n")(lambda x, n: x * n)(1.0, 2) == 2.0


def test_jit_takes_fun_by_position_only_and_no_abstracted_axes():
    with pytest.raises(TypeError):
        core.jit(fun=lambda x: x)
    with pytest.raises(TypeError, match="abstracted_axes"):
        core.jit(lambda x: x, abstracted_axes=None)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [  # JAX 0.10.2's first lines
        (
            {"static_argnames": "m"},
            "Jitted function has invalid argnames {'m'} in static_argnames. Function does not "
            "take these args.",
        ),
        (
            {"donate_argnums": 2},
            "Jitted function has donate_argnums=(2,), but only accepts 2 positional arguments.",
        ),
        (
            {"donate_argnames": "z"},
            "Jitted function has invalid argnames {'z'} in donate_argnames. Function does not "
            "take these args.",
        ),
    ],
)
def test_bad_argument_specs_raise_jaxs_value_errors(kwargs, message):
    with pytest.raises(ValueError) as e:
        core.jit(lambda x, y: x + y, **kwargs)(1.0, 2.0)
    assert str(e.value).splitlines()[0] == message


@pytest.mark.parametrize("kw", ["static_argnums", "donate_argnums"])
def test_argnums_must_be_integers(kw):
    with pytest.raises(TypeError, match="'str' object cannot be interpreted as an integer"):
        core.jit(lambda x, n: x * n, **{kw: "n"})


def test_static_argnums_and_argnames_given_together_are_not_inferred_from_each_other():
    f = core.jit(lambda x, n: x * n, static_argnums=(1,), static_argnames=("x",))
    # JAX 0.10.2: [0., 2., 4.] (x passed by position is not static)
    assert f(jnp.arange(3.0), 2).tolist() == [0.0, 2.0, 4.0]
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        f(x=jnp.arange(3.0), n=2)


def test_static_values_of_another_type_trace_again():
    seen = []

    def g(x, k):
        seen.append(k)
        return x * k

    f = core.jit(g, static_argnums=1)
    for k in (2, 2, 3, 2.0, True):
        f(1.0, k)
    assert seen == [2, 3, 2.0, True]  # JAX 0.10.2: four traces (2 == 2.0 but not the same)
    assert [type(k) for k in seen] == [int, int, float, bool]


def test_returning_a_non_array_names_the_function_and_the_output_component():
    def my_fn(x):
        return [x, "a"]

    with pytest.raises(TypeError) as e:
        core.jit(my_fn)(1.0)
    line = str(e.value).splitlines()[0]
    assert line.startswith("function my_fn at ")
    assert line.endswith(
        "traced for jit returned a value of type <class 'str'> at output component [1], "
        "which is not a valid JAX type"
    )
    with pytest.raises(TypeError, match="traced for jit returned a value of type <class 'str'>,"):
        core.eval_shape(lambda x: "a", 1.0)


def test_inline_stages_the_function_s_equations_into_the_enclosing_trace():
    def outer(inline):
        return lambda x: core.jit(lambda y: y * 2, inline=inline)(x) + 1

    names = [e.primitive.name for e in core.make_jaxpr(outer(True))(jnp.arange(3)).eqns]
    assert names == ["mul", "add"]  # JAX 0.10.2
    nested = core.make_jaxpr(outer(False))(jnp.arange(3)).eqns
    assert len(nested) == 2 and nested[0].params["name"] == "<lambda>"
    assert core.jit(lambda y: y * 2, inline=True)(jnp.arange(3)).tolist() == [0, 2, 4]


def test_jitted_eval_shape_keeps_its_static_arguments_and_weak_types():
    f = core.jit(lambda x, n: jnp.zeros(n) + x, static_argnums=1)
    assert repr(f.eval_shape(1.0, 3)) == "ShapeDtypeStruct(shape=(3,), dtype=float32)"
    weak = core.jit(lambda x, n: x * n, static_argnums=1).eval_shape(1.0, 3)
    assert repr(weak) == "ShapeDtypeStruct(shape=(), dtype=float32, weak_type=True)"
    sds = core.ShapeDtypeStruct((3,), jnp.float32)
    g = core.jit(lambda x, n: x * n, static_argnums=1)
    assert repr(core.eval_shape(g, sds, 2)) == "ShapeDtypeStruct(shape=(3,), dtype=float32)"


def test_repr_and_shape_dtype_struct_arguments():
    assert repr(core.jit(jnp.sin)).startswith("<PjitFunction of ")
    with pytest.raises(TypeError) as e:
        core.jit(lambda x: x)(core.ShapeDtypeStruct((4, 3), jnp.int8))
    assert str(e.value).splitlines()[0] == (  # JAX 0.10.2, its `jax.` as numbax's `core.`
        "Argument 'x' of shape int8[4,3] of type <class 'core.ShapeDtypeStruct'> is not a "
        "valid JAX type."
    )


def test_static_argnames_of_positional_only_parameters():
    with pytest.raises(ValueError) as e:
        core.jit(lambda x, n, /: x * n, static_argnames="n")
    assert str(e.value).splitlines()[0] == (  # JAX 0.10.2
        "Jitted function has invalid argnames {'n'} in static_argnames. These are positional-only"
    )


# JAX 0.10.2's first lines for a Python int argument out of int32's range
OVERFLOWS = [
    (lambda: core.jit(lambda x, y: x)(1, {"a": 2**40}), "y['a']", 2**40),
    (lambda: core.jit(lambda x: x)(-(2**40)), "x", -(2**40)),
    (lambda: core.jit(lambda *a: a[0])(1, 2**40), "a[1]", 2**40),
    (lambda: core.jit(lambda x, **kw: x)(1, k=2**31), "kw['k']", 2**31),
]


@pytest.mark.parametrize("call, path, value", OVERFLOWS)
def test_int_argument_overflow_is_jaxs_error(call, path, value):
    with pytest.raises(OverflowError) as e:
        call()
    assert str(e.value).splitlines()[0] == (
        "An overflow was encountered while parsing an argument to a jitted computation, whose "
        f"argument path is {path}. Got <class 'int'> with value {value}"
    )
    assert core.jit(lambda x: x)(2**31 - 1).dtype == jnp.int32
