"""The `statistics` module's functions of traced data (`statistics.mean(window)` of a list
the program built, `median(x)` of a traced array): the jnp computation, with Python's
value (a raw TypeError before: `statistics` converts each point to a fraction). Too few
points is Python's StatisticsError; data holding no traced value is Python's own call.
Ground truth: the same function run as plain Python on NumPy values."""
import statistics
from statistics import median

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted


def summaries(x, w):
    points = [x[0], x[1] * 2, x[2] + 1, x[3]]
    return (statistics.mean(points), statistics.fmean(points), statistics.fmean(points, w),
            median(points), statistics.median_low(points), statistics.median_high(points),
            statistics.pvariance(points), statistics.variance(points),
            statistics.pstdev(points), statistics.stdev(points), statistics.stdev(points, 1.0),
            statistics.pvariance(points, 2.0), statistics.mean(x), median(x[:3]))


def window_means(xs, k):
    out = []
    for i in range(len(xs) - k + 1):
        window = [xs[j] for j in range(i, i + k)]
        if statistics.stdev(window) > 0.5:
            out.append(statistics.mean(window))
        else:
            out.append(median(window))
    return out


@pytest.mark.parametrize('x', [[1.0, 2.0, 4.0, 0.5], [3.0, -1.0, 0.25, 8.0]])
def test_each_function_of_traced_points(x):
    w = [1.0, 2.0, 1.0, 0.5]
    expected = summaries(np.array(x), w)
    assert_same(autograph.convert(summaries)(jnp.asarray(x), w), expected)
    batched = jax.vmap(converted(summaries), in_axes=(0, None))(jnp.asarray([x, x]), w)
    assert_same(tuple(b[0] for b in batched), expected)


def test_a_staged_loop_over_windows():
    xs = np.array([0.5, 0.6, 0.4, 3.0, -2.0, 1.0], np.float32)
    expected = window_means(xs, 3)
    assert_same(autograph.convert(window_means)(jnp.asarray(xs), 3), expected)


def test_too_few_points_is_pythons_error_and_python_data_pythons_call():
    def one_point(x):
        return statistics.variance([x[0]])
    with pytest.raises(statistics.StatisticsError, match='at least two'):
        one_point(np.ones(3))
    with pytest.raises(statistics.StatisticsError, match='at least two'):
        autograph.convert(one_point)(jnp.ones(3))

    def of_numbers(n):
        return statistics.mean([1, 2, n])   # Python's: an int where the mean is one
    assert autograph.convert(of_numbers)(3) == 2 and type(of_numbers(3)) is int
    assert 'ag.statistics.mean' in autograph.to_code(of_numbers)
