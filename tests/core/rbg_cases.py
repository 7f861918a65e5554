"""The cases of `test_random.py`'s rbg/unsafe_rbg tests, shared with `record_random_rbg.py`:
each takes the `random` module and a key of the implementation and returns an array."""

CASES = {
    "split3": lambda r, k: r.key_data(r.split(k, 3)),
    "split2x2": lambda r, k: r.key_data(r.split(k, (2, 2))),
    "fold_in7": lambda r, k: r.key_data(r.fold_in(k, 7)),
    "fold_in_big": lambda r, k: r.key_data(r.fold_in(k, 2**31 + 5)),
    "uniform": lambda r, k: r.uniform(k, (5,)),
    "bits8": lambda r, k: r.bits(k, (3,), "uint8"),
    "normal": lambda r, k: r.normal(k, (3,)),
    "randint": lambda r, k: r.randint(k, (4,), 0, 100),
    "permutation": lambda r, k: r.permutation(k, 6),
    "choice": lambda r, k: r.choice(k, 10, (3,), replace=False),
    "bernoulli": lambda r, k: r.bernoulli(k, 0.3, (6,)),
    "vmap_uniform": None,  # vmap over split keys: the batch is drawn from the first key
    "jit_uniform": None,
}
