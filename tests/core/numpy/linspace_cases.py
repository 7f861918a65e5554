"""The cases of `test_linspace_bits.py`, shared with `record_linspace.py`: `jnp.linspace` on
float32 bounds of random magnitudes (1,024 scalar cases, as most programs call it), array
bounds along either axis, `endpoint=False`, `retstep`, integer dtypes. `cases()` gives
`name -> (start, stop, kwargs)`; the table records JAX's results' dtypes and bytes (hex).
Neither this table nor the test imports JAX."""

import numpy as np

F = np.float32


def cases():
    """The table: name -> (start, stop, keyword arguments of linspace)."""
    rng = np.random.RandomState(0)
    c = {}
    for k in range(1024):
        mag = 10.0 ** rng.randint(-3, 4)
        a, b = F(rng.randn() * mag), F(rng.randn() * mag)
        if k % 4 == 0:
            a = F(0)
        num, endpoint = int(rng.randint(2, 60)), bool(k % 3)
        c[f"scalar{k}"] = (a, b, {"num": num, "endpoint": endpoint})
    shapes = [((3,), ()), ((), (4,)), ((2, 3), (3,)), ((5,), (5,))]
    for s, (sa, sb) in enumerate(shapes):
        for axis in (0, -1):
            for num in (5, 20, 40):
                for endpoint in (True, False):
                    a = np.asarray(rng.randn(*sa) * 50, F)
                    b = np.asarray(rng.randn(*sb) * 50, F)
                    kw = {"num": num, "endpoint": endpoint, "axis": axis}
                    c[f"array{s}_{axis}_{num}_{endpoint}"] = (a, b, kw)
    for k, dtype in enumerate(["int32", "int8", "uint8", "int16"]):
        c[f"int_{dtype}"] = (F(-7.5 + k), F(100.25), {"num": 17, "dtype": dtype})
    for num in (2, 7, 34, 50):
        c[f"retstep{num}"] = (F(-1.25), F(3.5), {"num": num, "retstep": True})
        c[f"retstep{num}_open"] = (F(0.1), F(2.7), {"num": num, "retstep": True, "endpoint": False})
    c["one"] = (F(2.5), F(7), {"num": 1})
    c["python_scalars"] = (0, 1, {"num": 50})
    return c
