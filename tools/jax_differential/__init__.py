"""A differential fuzzer: runs the same calls on numbax and on JAX/Flax/Optax and compares them.

Each case is Python source run in a namespace whose names (`jax`, `jnp`, `lax`, `random`,
`jtu`, `init`, `jsp`, `optax`, `flax`, `fnn`) are numbax's modules on one side and the real
libraries on the other (`namespace`); an expression's value (or the variable `out` of a block of
statements) is turned into plain data (arrays as dtype, shape, weak type and values; exceptions
as class names and message; other objects as their repr; `plain`) by each side's own process
(`side`), and the two are compared (`compare`): values to round-off (bit for bit for cases
marked exact, e.g. random bits; 16-bit floats to one unit in the last place), dtypes, weak
types, shapes, exception classes (JAX's class must be among numbax's bases) and messages (JAX's
first line must be numbax's first line; numbax adds its fix on later lines).

The cases come in areas, one module of `areas/` each (the registry, its order and what an area
module holds: `areas/__init__.py`); `prelude` and the areas' `PRELUDE`s are run before every
case on both sides.

Usage (from the repository root; the JAX side runs under the reference interpreter)::

    python -m tools.jax_differential [--area AREA] [--ref /opt/ref/bin/python] [-v]
    python -m tools.jax_differential --list          # the areas and their case counts
    python -m tools.jax_differential --area flax_layer_options --match 'RNN[(]' -v  # some cases

The package never imports JAX in numbax's process.
"""
