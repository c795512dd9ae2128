"""The rng argument of gendyn.train, gendyn.sampling and gendyn.book.stats (issue 33 item 4).

Every stochastic public function takes ``rng`` (an int, a SeedSequence, a torch or numpy generator, or
None for fresh entropy, :mod:`gendyn.seeding`); the former ``generator=`` / ``seed=`` keywords still work
for one release with a ``DeprecationWarning`` and give the same draws; both at once is an error.
"""

import numpy as np
import pytest
import torch

from gendyn import sampling, seeding, train
from gendyn.book import stats

SPEC = train.FullBatchSpec(n1=4, n2=2, n3=2, lr=0.05, horizon=0.5, n_records=3, eps=1e-2)
CURVES = train.LeakyAndLinear(np.array([0.0, 0.5, 1.0, 2.0, 4.0, 8.0]),
                              *(np.stack([[[4.0, 2.0, 1.0, 1.2, 2.5, 4.0], [4.0, 1.8, 1.1, 1.0, 2.2, 3.0]]] * 2) * k
                                for k in (1.0, 1.1, 0.9, 1.2)))
SIZES, SAMPLES = [10.0, 20.0, 40.0], [[1.0, 1.2, 0.9, 1.1], [0.5, 0.6, 0.4, 0.55], [0.3, 0.2, 0.25, 0.28]]


def _sweep(**rng):
    return train.snr_sweep([2.0], [1, 2], 2, 6, 3, **rng)


def _sigma31():
    return _sweep(rng=0).sigma31.float()


# one representative call per family: torch draws (former generator=) and numpy bootstraps (former seed=)
TORCH = {
    "snr_sweep": (lambda **r: _sweep(**r).sigma31, "generator"),
    "init_weights": (lambda **r: train.init_weights(_sigma31(), 3, 3, "random", 1e-3, **r)[0], "generator"),
    "fan_average_weights": (lambda **r: train.fan_average_weights(2, (4, 3, 2), 0.01, **r)[0], "generator"),
    "train_students": (lambda **r: train.train_students(
        _sigma31(), train.Architecture(hidden=3), train.Schedule(lr=0.05, epochs=5, n_records=3),
        start=train.Start(init="random", eps=1e-3), execution=train.Execution(desc=None), **r).train_error,
        "generator"),
    "train_leaky_and_linear": (lambda **r: train.train_leaky_and_linear([[2.0, 1.0]], 2, SPEC, **r).leaky_test,
                               "generator"),
}
NUMPY = {
    "minimum_time_ratios": (lambda **r: train.minimum_time_ratios([CURVES], n_boot=20, **r)[0].se, "seed"),
    "fitted_exponent": (lambda **r: stats.fitted_exponent(SIZES, SAMPLES, n_boot=30, **r)[1], "seed"),
}
FAMILIES = {**TORCH, **NUMPY}


def _value(x):
    return np.asarray(x.detach().cpu() if isinstance(x, torch.Tensor) else x, dtype=float)


@pytest.mark.parametrize("name", sorted(TORCH))
def test_an_integer_rng_draws_as_the_generator_seeded_with_it(name):
    call, _ = TORCH[name]
    assert np.array_equal(_value(call(rng=5)), _value(call(rng=torch.Generator().manual_seed(5))))
    assert not np.array_equal(_value(call(rng=5)), _value(call(rng=6)))


@pytest.mark.parametrize("name", sorted(NUMPY))
def test_an_integer_rng_bootstraps_as_default_rng(name):
    call, _ = NUMPY[name]
    assert call(rng=5) == call(rng=np.random.default_rng(5)) == call(rng=5)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_the_former_keyword_warns_and_draws_the_same(name):
    call, former = FAMILIES[name]
    value = torch.Generator().manual_seed(3) if former == "generator" else 3
    with pytest.warns(DeprecationWarning, match=rf"\({former}=\.\.\.\) is deprecated.*pass rng="):
        old = call(**{former: value})
    new = call(rng=torch.Generator().manual_seed(3) if former == "generator" else 3)
    assert np.array_equal(_value(old), _value(new))
    with pytest.raises(ValueError, match=r"takes one random-number argument, rng; got rng=, "):
        call(rng=1, **{former: value})


@pytest.mark.parametrize("name", sorted(FAMILIES))
@pytest.mark.parametrize("bad", [-1, 1.5, "x", True])
def test_a_bad_rng_is_refused_naming_rng(name, bad):
    call, _ = FAMILIES[name]
    with pytest.raises(ValueError, match=r"^rng must be an integer >= 0"):
        call(rng=bad)


def test_none_is_fresh_entropy():
    assert not torch.equal(_sweep(rng=None).sigma31, _sweep(rng=None).sigma31)


def test_the_former_seed_of_speedup_exponent_and_unknown_keywords():
    grid = sampling.theory_grid(8, [4, 8, 16], [2.0], 1e-3)
    t = np.concatenate([[0.0], np.geomspace(0.01, 10.0, 60)])
    curves = np.stack([grid_curve * np.array([1.0, 1.1])[:, None] for grid_curve in
                       [sampling.test_error(t, [2.0], 8, p, 1e-3)[None] for p in (4, 8, 16)]])[:, None]
    new = sampling.speedup_exponent(t, curves, grid, lr=0.02, rng=4, n_boot=5)
    with pytest.warns(DeprecationWarning, match=r"speedup_exponent\(seed=\.\.\.\)"):
        assert sampling.speedup_exponent(t, curves, grid, lr=0.02, seed=4, n_boot=5) == new
    with pytest.raises(TypeError, match="unexpected keyword"):
        train.snr_sweep([2.0], [1], 1, 4, 2, generatr=0)


def test_a_stream_is_an_rng_and_streams_of_two_series_differ():
    a = _sweep(rng=seeding.stream(0, "sweep")).sigma31
    assert torch.equal(a, _sweep(rng=seeding.stream(0, "sweep")).sigma31)
    assert not torch.equal(a, _sweep(rng=seeding.stream(0, "mc")).sigma31)
    assert not torch.equal(a, _sweep(rng=seeding.stream(1, "sweep")).sigma31)
