"""The `statistics` module's functions, for converted code: `statistics.mean(window)` of
traced numbers (a list the program built, or a traced 1-D array) is
`ag.statistics.mean(window)`.

Python reference: `mean`, `fmean` (optionally weighted), `median` (the mean of the two
middle values for an even count), `median_low`, `median_high`, `pvariance` and
`variance` (the sample's, divided by n - 1; each around a given mean, `mu`/`xbar`,
where one is given), `pstdev` and `stdev` (their square roots). Each raises
`statistics.StatisticsError` for too few data points (none; fewer than two for
`variance` and `stdev`).

Data holding no traced value go to Python's `statistics` itself. Traced data give the
`jnp` computation's value (a float array of JAX's default float type, where Python may
give an int or a Fraction of the same value), and the count is Python's (a list's length,
an array's first axis): too few points is Python's own StatisticsError while tracing.
"""
import statistics as _statistics

import jax.numpy as jnp

from ..values.split import any_traced, is_traced


def _values(data):
    """The data points as a float array: a traced 1-D array, or a list (tuple) of
    numbers, some traced."""
    values = data if is_traced(data) else jnp.stack([jnp.asarray(v) for v in data])
    return jnp.asarray(values, dtype=jnp.result_type(float))


def _twin(name, compute, least=1):
    """`statistics.name(data, *rest)`: Python's for data that hold no traced value (or
    too few points: Python's error), else `compute(values, *rest)`."""
    python = getattr(_statistics, name)

    def function(data, *rest, **options):
        if not (is_traced(data) or any_traced(list(data))):
            return python(data, *rest, **options)
        if len(data) < least:   # (Python's StatisticsError, raised of as many points)
            return python([0.0] * len(data))
        return compute(_values(data), *rest, **options)
    function.__name__ = name
    function.__doc__ = f'Python reference: `statistics.{name}(data, ...)` (see the module doc).'
    return function


def _fmean(values, weights=None):
    return jnp.mean(values) if weights is None else jnp.average(values, weights=_values(
        weights))


def _variance(ddof):
    def compute(values, center=None):
        center = jnp.mean(values) if center is None else center
        return jnp.sum((values - center) ** 2) / (values.shape[0] - ddof)
    return compute


def _middle(which):
    def compute(values):
        ordered = jnp.sort(values)
        return ordered[(values.shape[0] - 1) // 2 if which == 'low' else values.shape[0] // 2]
    return compute


mean = _twin('mean', jnp.mean)
fmean = _twin('fmean', _fmean)
median = _twin('median', jnp.median)
median_low = _twin('median_low', _middle('low'))
median_high = _twin('median_high', _middle('high'))
pvariance = _twin('pvariance', _variance(0))
variance = _twin('variance', _variance(1), least=2)
pstdev = _twin('pstdev', lambda values, mu=None: jnp.sqrt(_variance(0)(values, mu)))
stdev = _twin('stdev', lambda values, xbar=None: jnp.sqrt(_variance(1)(values, xbar)),
              least=2)

NAMES = frozenset({'mean', 'fmean', 'median', 'median_low', 'median_high', 'pvariance',
                   'variance', 'pstdev', 'stdev'})
"""The `statistics` functions this module stands in for."""
