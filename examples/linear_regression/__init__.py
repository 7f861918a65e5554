"""Linear regression by jitted gradient descent.

Run ``python -m examples.linear_regression.train``.
"""
