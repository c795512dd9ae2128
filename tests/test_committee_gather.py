"""The ODEs' right-hand side takes its Gaussian averages' covariances with precomputed flat indices
(committee._Tuples.gather) and unpacks the state without np.triu: the same values, bit for bit, as the former
fancy-index gather and unpacking; the derivatives and an ODE run are unchanged. A batch of states (the
finite-difference Jacobian's columns) gives each state's derivatives bit for bit as alone."""
import numpy as np
import pytest

from gendyn import committee as cm


@pytest.mark.parametrize("K, M", [(1, 1), (3, 2), (5, 2), (4, 4)])
def test_flat_gather_equals_fancy_gather(K, M):
    rng = np.random.default_rng(K * 10 + M)
    tup = cm._Tuples(K, M)
    a = rng.standard_normal((K + M, K + M))
    C = a @ a.T
    for name in ("pairs", "spairs", "triples", "quads"):
        new, old = tup.gather(C, name), cm._gather(C, getattr(tup, name))
        assert new.shape == old.shape and np.array_equal(new, old)
        for act in cm.ACTIVATIONS:  # every Gaussian average reads the same numbers
            m = old.shape[-1]
            fun = cm._TABLE[act][{2: 0, 3: 1, 4: 2}[m]] if name != "spairs" else cm._TABLE[act][3]
            assert np.array_equal(fun(new), fun(old), equal_nan=True)
    batched = np.stack([C, 2 * C])  # a batch of covariances: the same values in another layout
    for name in ("pairs", "spairs", "triples", "quads"):
        assert np.array_equal(tup.gather(batched, name), cm._gather(batched, getattr(tup, name)))
    assert np.array_equal(tup.gather(np.stack([batched, batched]), "quads"),
                          cm._gather(np.stack([batched, batched]), tup.quads))


def _former_unpack(y, K, M, iu):
    nq = len(iu[0])
    Q = np.zeros((K, K))
    Q[iu] = y[:nq]
    Q = Q + np.triu(Q, 1).T
    return Q, y[nq:nq + K * M].reshape(K, M), y[nq + K * M:]


def test_unpack_equals_former():
    K, M = 4, 3
    iu = np.triu_indices(K)
    y = np.random.default_rng(0).standard_normal(len(iu[0]) + K * M + K)
    y[[0, 3, 5]] = -0.0  # the former unpacking turned -0.0 into 0.0
    for a, b in zip(cm._unpack(y, K, M, iu), _former_unpack(y, K, M, iu)):
        assert a.tobytes() == b.tobytes()


def test_derivatives_unchanged_by_layout():
    """_derivatives with the flat gather against the same code with the fancy gather (monkeypatched)."""
    K, M = 5, 2
    near = cm.specialised_state(M, K - M, jitter=0.01, rng=3)
    v, v_star = np.ones(K), np.ones(M)
    tup = cm._Tuples(K, M)
    new = cm._derivatives(*near[:2], near[2], v, v_star, "erf", tup, 0.05, 0.05, 1e-4, 0.0, True)

    class Fancy(cm._Tuples):
        def gather(self, C, name):
            return cm._gather(C, getattr(self, name))

    old = cm._derivatives(*near[:2], near[2], v, v_star, "erf", Fancy(K, M), 0.05, 0.05, 1e-4, 0.0, True)
    for a, b in zip(new, old):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()


@pytest.mark.parametrize("activation", cm.ACTIVATIONS)
@pytest.mark.parametrize("K, M", [(1, 1), (4, 2), (6, 2)])
def test_batched_derivatives_are_each_states_own_bits(activation, K, M):
    """A batch as large as a Jacobian's (every column one shifted state, plus the state itself)."""
    rng = np.random.default_rng(K + 7 * M)
    a = rng.standard_normal((K + M, K + M + 2))
    C = a @ a.T / (K + M)
    Q, R, T = C[:K, :K], C[:K, K:], C[K:, K:]
    v, v_star = rng.standard_normal(K), rng.standard_normal(M)
    iu = np.triu_indices(K)
    y = cm._pack(Q, R, v, iu)
    shifted = np.repeat(y[None], y.size + 1, axis=0)
    shifted[np.arange(y.size) + 1, np.arange(y.size)] += 1e-3 * rng.standard_normal(y.size)
    tup = cm._Tuples(K, M)
    Qs, Rs, vs = cm._unpack(shifted, K, M, iu)
    for train2, wd in ((False, 0.0), (True, 1e-3)):
        args = (activation, tup, 0.3, 0.2, 0.01, wd, train2)
        together = cm._derivatives(Qs, Rs, T, vs, v_star, *args)
        # the Jacobian's way: only the averages each one-coordinate shift changes are evaluated
        shortcut = cm._derivatives(Qs, Rs, T, vs, v_star, *args, averages=cm._OneEntryShifts(tup, iu))
        for j, state in enumerate(shifted):
            Qj, Rj, vj = cm._unpack(state, K, M, iu)
            alone = cm._derivatives(Qj, Rj, T, vj, v_star, *args)
            for x, y_, z in zip(alone, together, shortcut):
                assert np.asarray(x).tobytes() == np.asarray(y_[j]).tobytes() == np.asarray(z[j]).tobytes()


def test_one_entry_shifts_evaluate_only_what_a_shift_changes():
    """A shifted Q or R entry (x, y) changes the averages whose fields hold x and y, and no other; v none."""
    K, M = 4, 2
    tup, iu = cm._Tuples(K, M), np.triu_indices(K)
    shifts = cm._OneEntryShifts(tup, iu)
    rng = np.random.default_rng(3)
    a = rng.standard_normal((K + M, K + M + 2))
    C = a @ a.T / (K + M)
    y = cm._pack(C[:K, :K], C[:K, K:], rng.standard_normal(K), iu)
    shifted = np.repeat(y[None], y.size + 1, axis=0)
    shifted[np.arange(y.size) + 1, np.arange(y.size)] += 0.01
    Qs, Rs, _ = cm._unpack(shifted, K, M, iu)
    Cs = cm._covariance(Qs, Rs, np.broadcast_to(C[K:, K:], (y.size + 1, M, M)))
    for name, fun in (("triples", cm._TABLE["erf"][1]), ("quads", cm._TABLE["erf"][2])):
        full = fun(tup.gather(Cs, name))
        changed = full != full[0]
        state, which, _ = shifts.changed[name]
        listed = np.zeros_like(changed)
        listed[state, which] = True
        assert not np.any(changed & ~listed)  # nothing that changes is left out
        assert not listed[0].any() and not listed[-K:].any()  # the unshifted state and the v shifts: none
        assert listed.sum() < 0.5 * listed[1:-K].size  # and much is left out
