"""A kernel's structure key: equal for the same computation on other variables, different for
anything that changes the kernel; `codegen.generate_generic` generates each structure once."""

import numpy as np

import core
import core.numpy as jnp
from core import lax
from core.bounded_record import BoundedRecord
from core.jit import codegen, structure


def _jaxpr(f, *args):
    return core.make_jaxpr(f)(*args).jaxpr


X = np.ones((3, 4), np.float32)


def _layer(x, w=2.0):
    return jnp.tanh(x * w) + jnp.sum(x, axis=1, keepdims=True)


def test_the_same_computation_on_other_variables_has_one_key():
    a, b = _jaxpr(_layer, X), _jaxpr(lambda x: _layer(x), X)  # two traces (one is cached)
    assert a.invars[0] is not b.invars[0]
    assert structure.key(a) is not None
    assert structure.key(a) == structure.key(b)


def test_what_changes_the_kernel_changes_the_key():
    base = structure.key(_jaxpr(_layer, X))
    others = [
        _jaxpr(_layer, np.ones((3, 5), np.float32)),  # sizes
        _jaxpr(lambda x: _layer(x, 3.0), X),  # literals
        _jaxpr(lambda x: jnp.tanh(x * 2.0) + jnp.sum(x, axis=0, keepdims=True), X),  # params
        _jaxpr(lambda x: jnp.tanh(x * 2.0) - jnp.sum(x, axis=1, keepdims=True), X),  # primitives
        _jaxpr(lambda x, y: jnp.tanh(x * 2.0) + jnp.sum(y, axis=1, keepdims=True), X, X),  # inputs
    ]
    keys = [structure.key(j) for j in others]
    assert None not in keys
    assert len({base, *keys}) == len(others) + 1


def test_dtypes_differ():
    keys = [structure.key(_jaxpr(lambda x: x + x, X.astype(t))) for t in (np.float32, np.int32)]
    assert keys[0] != keys[1]


def test_zero_and_negative_zero_differ():
    keys = [structure.key(_jaxpr(lambda x, c=c: x * c, X)) for c in (0.0, -0.0)]
    assert keys[0] != keys[1]


def test_kernels_with_jaxprs_in_their_parameters_are_not_keyed():
    def f(x):
        return lax.scan(lambda c, r: (c + r, c * r), jnp.zeros(4, x.dtype), x)

    assert structure.key(_jaxpr(f, X)) is None


def test_generate_generic_generates_a_structure_once(monkeypatch):
    made = []
    generate = codegen._generate

    def counting(*args, **kwargs):
        made.append(args[0])
        return generate(*args, **kwargs)

    monkeypatch.setattr(codegen, "_generate", counting)
    monkeypatch.setattr(codegen, "_generated", BoundedRecord(8, recency=True))
    a, b = _jaxpr(_layer, X), _jaxpr(_layer, X)
    src_a, arrays_a = codegen.generate_generic(a)
    src_b, arrays_b = codegen.generate_generic(b)
    assert made == [a]
    assert src_a == src_b == generate(b, True, False, generic=True, pack_arrays=False)[0]
    assert [x.tolist() for x in arrays_a] == [x.tolist() for x in arrays_b]
    assert arrays_a is not arrays_b
    codegen.generate_generic(a, parallel=False)  # other options: generated again
    assert len(made) == 2


def test_generate_generic_is_safe_across_threads(monkeypatch, run_threads):
    # Threads that jit at once share the memo: with room for one entry, every call evicts
    # another thread's, which raised a KeyError in the evicting thread before the memo's lock.
    monkeypatch.setattr(codegen, "_generated", BoundedRecord(1, recency=True))
    monkeypatch.setattr(codegen, "_generate", lambda jaxpr, *a, **k: (str(id(jaxpr)), []))
    jaxprs = [_jaxpr(lambda x, k=k: x * k, X) for k in range(8)]

    def work(i: int) -> None:
        for _ in range(20000):
            codegen.generate_generic(jaxprs[i])

    run_threads(work, len(jaxprs))
