"""The one random-number convention (gendyn.seeding): rng values, named streams, former keywords."""

import warnings

import numpy as np
import pytest
import torch

from gendyn import seeding


@pytest.mark.parametrize("bad", [-1, 1.5, "0", True, np.bool_(False), [0], object()])
def test_check_refuses_what_is_not_an_rng(bad):
    with pytest.raises(ValueError, match="rng must be an integer >= 0"):
        seeding.check(bad)


def test_check_keeps_allowed_values():
    ss, gen, tg = np.random.SeedSequence(1), np.random.default_rng(1), torch.Generator()
    assert seeding.check(np.int64(3)) == 3 and type(seeding.check(np.int64(3))) is int
    assert seeding.check(None) is None
    assert seeding.check(ss) is ss and seeding.check(gen) is gen and seeding.check(tg) is tg


def test_integer_streams_are_spawned_children():
    children = np.random.SeedSequence(11).spawn(5)
    for i, child in enumerate(children):
        assert np.array_equal(seeding.stream(11, i).generate_state(4), child.generate_state(4))


def test_named_streams_do_not_depend_on_order_or_company():
    a1, b1 = seeding.streams(4, "teacher", "data")
    b2, a2 = seeding.streams(4, "data", "teacher")
    for x, y in ((a1, a2), (b1, b2)):
        assert np.array_equal(x.generate_state(4), y.generate_state(4))
    assert np.array_equal(seeding.stream(4, "teacher").generate_state(4), a1.generate_state(4))


def test_different_paths_never_coincide():
    paths = [(), ("relu",), ("inverse_k",), ("relu", 0), ("relu", 1), ("inverse_k", 0), (0,), (1,), (0, 1),
             (1, 0), ("0",), ("relu", "0"), ("relu", 0, 0)]
    states = {}
    for seed in (0, 1, 300):
        for path in paths:
            state = tuple(seeding.stream(seed, *path).generate_state(4))
            assert state not in states, f"stream {seed, path} equals {states.get(state)}"
            states[state] = (seed, path)


def test_a_text_name_is_never_an_integer_name():
    # crc32 lies in [0, 2**32): text keys are shifted above every integer key
    assert all(seeding._key(name, "rng") >= 2 ** 32 for name in ("a", "relu", "0"))
    with pytest.raises(ValueError, match="stream name"):
        seeding.stream(0, 2 ** 32)
    with pytest.raises(ValueError, match="stream name"):
        seeding.stream(0, "")
    with pytest.raises(ValueError, match="stream name"):
        seeding.stream(0, 1.0)


def test_generators_are_used_as_they_are_and_advanced():
    g = torch.Generator().manual_seed(0)
    assert seeding.torch_generator(g) is g
    a, b = seeding.stream(g), seeding.stream(g)
    assert not np.array_equal(a.generate_state(2), b.generate_state(2))
    n = np.random.default_rng(0)
    assert seeding.numpy_generator(n) is n


def test_integers_seed_generators_directly():
    assert torch.equal(torch.randn(3, generator=seeding.torch_generator(7)),
                       torch.randn(3, generator=torch.Generator().manual_seed(7)))
    assert np.array_equal(seeding.numpy_generator(7).random(3), np.random.default_rng(7).random(3))
    ss = seeding.stream(7, "x")
    assert np.array_equal(seeding.numpy_generator(ss).random(3), np.random.default_rng(ss).random(3))
    assert seeding.torch_generator(ss).initial_seed() == seeding.entropy(ss)


def test_none_is_fresh_entropy():
    assert not torch.equal(torch.randn(4, generator=seeding.torch_generator(None)),
                           torch.randn(4, generator=seeding.torch_generator(None)))


def test_former_keywords_warn_and_conflict():
    def draw(rng=None, **former):
        return seeding.former_rng(rng, former, "draw")

    with pytest.warns(DeprecationWarning, match=r"draw\(seed=...\) is deprecated.*pass rng="):
        assert draw(seed=5) == 5
    with pytest.raises(ValueError, match="one random-number argument"):
        draw(1, seed=2)
    kept = {"seed": 1, "other": 2}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert seeding.former_rng(None, kept, "f") == 1
    assert kept == {"other": 2}
    with pytest.raises(ValueError, match="seed must be an integer"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            draw(seed=-3)


def test_former_rng_alone_refuses_any_other_keyword_as_python_does():
    def draw(rng=None, **former):
        return seeding.former_rng(rng, former, "module.draw", alone=True)

    assert draw(3) == 3
    with pytest.raises(TypeError, match=r"^draw\(\) got an unexpected keyword argument 'sead'$"):
        draw(sead=1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'other'"):
        draw(seed=1, other=2)  # the former keyword does not hide a misspelt one
    with pytest.warns(DeprecationWarning, match=r"module\.draw\(seed=\.\.\.\)"):
        assert draw(seed=4) == 4


def test_run_seeds_differ_between_runs_paths_and_roots():
    a = seeding.run_seeds(0, 5, "cells")
    b = seeding.run_seeds(1, 5, "cells")
    c = seeding.run_seeds(0, 5, "grid")
    assert len(set(a + b + c)) == 15 and all(0 <= s < 2 ** 63 for s in a)
    assert seeding.run_seeds(0, 3, "cells") == a[:3]
    with pytest.raises(ValueError, match="runs must be an integer >= 1"):
        seeding.run_seeds(0, 0)


def test_fresh_entropy_is_refused_where_runs_must_be_reproducible(monkeypatch):
    from gendyn import _random

    monkeypatch.setenv(seeding.REQUIRE_RNG, "1")
    for make in (seeding.numpy_generator, seeding.stream):
        with pytest.raises(ValueError, match="GENDYN_REQUIRE_RNG"):
            make(None)
    # a torch generator of None may be made (a call may draw nothing) but refuses to draw
    unseeded = seeding.torch_generator(None)
    for draw in (lambda: _random.randn(2, generator=unseeded), lambda: _random.rand(2, generator=unseeded),
                 lambda: _random.randperm(3, generator=unseeded), lambda: seeding.stream(unseeded)):
        with pytest.raises(ValueError, match="GENDYN_REQUIRE_RNG"):
            draw()
    assert seeding.torch_generator(3).initial_seed() == 3  # a seed is fine
    _random.randn(2, generator=seeding.torch_generator(3))
    monkeypatch.setenv(seeding.REQUIRE_RNG, "0")
    _random.randn(2, generator=seeding.torch_generator(None))


def test_fresh_entropy_is_refused_where_torch_generators_take_no_weak_reference(monkeypatch):
    from gendyn import _random

    class NoWeakReferences(set):  # torch 2.11: weakref.ref(torch.Generator()) raises TypeError
        def add(self, item):
            raise TypeError("cannot create weak reference to 'torch._C.Generator' object")

    monkeypatch.setattr(_random, "_UNSEEDED", NoWeakReferences())
    monkeypatch.setattr(_random, "_UNSEEDED_HELD", {})
    monkeypatch.setenv(seeding.REQUIRE_RNG, "1")
    unseeded = seeding.torch_generator(None)
    with pytest.raises(ValueError, match="GENDYN_REQUIRE_RNG"):
        _random.randn(2, generator=unseeded)
    _random.randn(2, generator=seeding.torch_generator(3))  # another generator still draws
