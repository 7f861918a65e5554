"""``help(core.jit)`` shows a working example: its doctest runs and prints what it says."""

import doctest

from core.jit.api import jit


def test_jit_docstring_example():
    (test,) = doctest.DocTestFinder().find(jit, "jit", globs={})
    assert len(test.examples) >= 6
    result = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE).run(test)
    assert result.failed == 0
