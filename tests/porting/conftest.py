"""The ported programs are run by `checks.py` (for the `test_ported_*.py` files) with their
imports swapped, never collected as tests themselves (a program named like `*_test.py` would
be imported by pytest's pattern with the real `jax`)."""

collect_ignore_glob = ["programs/*"]
