"""The linear regression example recovers w = 4, b = 1."""

import pytest

from examples.linear_regression.train import fit, main


def test_fit_recovers_the_line():
    params, loss, _ = fit(num_points=20_000, steps=300, lr=0.1)
    assert float(params["w"]) == pytest.approx(4.0, abs=0.02)
    assert float(params["b"]) == pytest.approx(1.0, abs=0.02)
    assert loss == pytest.approx(0.25, rel=0.05)  # the noise variance, 0.5 ** 2


def test_command_line(capsys):
    assert main(["--num-points", "1000", "--steps", "200"]) == 0
    out = capsys.readouterr().out
    w = float(out.split("w = ")[1].split(",")[0])
    b = float(out.split("b = ")[1].split(" ")[0])
    assert w == pytest.approx(4.0, abs=0.1) and b == pytest.approx(1.0, abs=0.1)
