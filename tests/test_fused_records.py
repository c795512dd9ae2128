"""A linear student's record and its update share one forward pass (train_students): the records and the final
weights are bit-identical to a forward-only pass at every record followed by a separate step (the former loop)."""
import numpy as np
import pytest
import torch

from gendyn import train


def _former_loop(sigma31, teacher, ws, lr, grid, epochs):
    """The loop before the fusion: a forward-only pass at each record, then the update."""
    ws = [w.clone() for w in ws]
    y_norm = sigma31.to(torch.float64).square().sum(-1).sum(-1)
    t_norm = teacher.to(torch.float64).square().sum(-1).sum(-1)
    kw = dict(sigma31=sigma31, sigma11=None, x=None, y=sigma31)
    tr, te, j = [], [], 0
    for epoch in range(epochs + 1):
        if j < len(grid) and epoch == grid[j]:
            res, w = train._linear_step(ws, lr, False, True, **kw)
            tr.append(res.to(torch.float64).square().sum(-1).sum(-1) / y_norm)
            te.append((w - teacher).to(torch.float64).square().sum(-1).sum(-1) / t_norm)
            j += 1
        if epoch < epochs:
            train._linear_step(ws, lr, True, False, **kw)
    return torch.stack(tr, 1).numpy(), torch.stack(te, 1).numpy(), ws


@pytest.mark.parametrize("n_layers", [3, 5])
def test_fused_record_step_is_bit_identical(n_layers):
    gen = torch.Generator().manual_seed(3)
    sweep = train.snr_sweep([2.0, 4.0], [1, 3], 3, 30, 20, rng=gen)  # a paper-like shape, smaller
    data, teacher, init = train.ta_and_random(sweep)
    hidden, lr, epochs = 16, 1e-2, 400
    ws0 = train.init_weights(data, hidden, n_layers, init, eps=1e-3, rng=gen)
    grid = train.dense_epoch_grid(epochs, 20, lr=lr, dense_from=1.0, dense_dt=0.02)  # records every other epoch
    res = train.train_students(data, train.Architecture(hidden=hidden, n_layers=n_layers),
                               train.Schedule(lr=lr, epochs=epochs, record_at=grid),
                               start=train.Start(weights=ws0), evaluation=train.Evaluation(teacher=teacher))
    tr, te, ws = _former_loop(data, teacher, ws0, lr, grid, epochs)
    assert np.array_equal(res.train_error, tr)
    assert np.array_equal(res.test_error, te)
    for a, b in zip(res.weights, ws):
        assert torch.equal(a, b)
