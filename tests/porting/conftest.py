"""The ported programs are run by `checks.py` (for the `test_ported_*.py` files) with their
imports swapped, never collected as tests themselves (some keep their upstream names, such as
`linen_design_test.py`, which pytest's `*_test.py` pattern would import with the real `jax`)."""

collect_ignore_glob = ["programs/*"]
