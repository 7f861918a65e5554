"""`core.example_libraries`: JAX's example libraries (`jax.example_libraries`).

`stax` (layers as `(init_fun, apply_fun)` pairs and their combinators) and `optimizers`
(optimizers as `(init_fun, update_fun, get_params)` triples), with JAX's API and numbers. Like
JAX's, the package is not imported by `import core`: write
`from core.example_libraries import stax, optimizers`.
"""
