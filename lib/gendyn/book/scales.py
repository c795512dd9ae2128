"""Run configurations of the chapters, and the checks on a notebook's parameters.

Every chapter notebook starts with a papermill ``parameters`` cell of literals::

    SCALE = "paper"   # "smoke" (seconds, for the tests) or "paper" (the papers' sizes)
    SEED = 0
    DEVICE = "cpu"    # or "cuda"

and derives its run configuration in the next cell::

    cfg = gendyn.scales.configure("lg-rmt", SCALE, SEED, DEVICE)
    cfg.n1, cfg.repeats, cfg.device, ...

The sizes of every chapter at every scale live in :data:`CHAPTERS`, one table for the
whole book. A bad value stops the notebook at once with a message that names the
parameter and what is allowed.
"""

import math
import types
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from .. import _checks
from ..allocator import retain_freed_memory

__all__ = ["SCALES", "CHAPTERS", "RunConfig", "configure", "check_device"]

SCALES = ("smoke", "paper")

#: Sizes of each chapter at each scale. Keys are chapter ids (``paper-section``).
CHAPTERS = {
    # Lee & Ndirango (2019): softmax classifiers, single task and multitask (notebooks/lee-ndirango).
    "ln-setup": {  # §2-4, App. A-C: the reconstructed theory, checked numerically
        # near_chance_samples: labels at the smallest SNR for the first-order agreement claim
        "paper": dict(mc_samples=2**20, label_samples=100_000, near_chance_samples=4_000_000),
        "smoke": dict(mc_samples=2**15, label_samples=20_000, near_chance_samples=1_000_000),
    },
    "ln-single-task": {  # §3, Fig. 1: TA dynamics (3) vs simulation, TA vs random initialisation
        "paper": dict(sbars=(0.05, 0.1, 0.2, 0.4, 1.0), binary_sbars=(0.1, 0.3, 1.0), n_train=20_000, n_val=4000,
                      lr=0.05, horizon=150.0, random_init_scale=0.05,
                      finite_size_n=(1000, 2000, 4000, 8000, 16_000), finite_size_seeds=6),
        "smoke": dict(sbars=(0.1, 1.0), binary_sbars=(0.3,), n_train=3000, n_val=1000,
                      lr=0.1, horizon=100.0, random_init_scale=0.05,
                      finite_size_n=(500, 1000, 2000, 4000), finite_size_seeds=5),
    },
    "ln-multitask": {  # §4.5, Figs. 2, A1, A2: benefit vs relatedness and SNRs (linear students)
        "paper": dict(seeds=5, n_train=(100, 200, 400, 800, 1600, 3200), rank3_n_train=(100, 400),
                      snr_points=6, relatedness_every=1, lr=1.0, steps=300, eval_every=3, n_val=1000),
        "smoke": dict(seeds=5, n_train=(100, 400, 1600), rank3_n_train=(100,),
                      snr_points=3, relatedness_every=2, lr=1.0, steps=100, eval_every=2, n_val=300),
    },
    "ln-aux-depth": {  # §4.6-4.7, Figs. 3, A3, A4: auxiliary data, deeper ReLU students
        "paper": dict(seeds=5, aux_n_train=(100, 200, 400, 800), snr_points=6, relatedness_every=1,
                      lr=1.0, steps=300, eval_every=3, n_val=1000,
                      deep_depths=(1, 3, 5), deep_n_train=(200, 400, 800), deep_snr_points=6,
                      deep_lr=0.25, deep_steps=240, deep_eval_every=4),
        "smoke": dict(seeds=5, aux_n_train=(100, 400), snr_points=3, relatedness_every=2,
                      lr=1.0, steps=100, eval_every=2, n_val=300,
                      deep_depths=(1, 2), deep_n_train=(200,), deep_snr_points=3,
                      deep_lr=0.25, deep_steps=100, deep_eval_every=4),
    },
    "ln-published": {  # comparison with the authors' published per-run results
        # floor_samples: Monte Carlo inputs of the label-entropy floor H(y|x)
        # authors_groups: (file, P_A, P_B, trunk depth) of the cells rerun by the authors' protocol
        # authors_cells: "subset" (authors_groups, eight multitask cells each) or "all" (every cell of
        # the four files: hours on two cores; a GPU or a Dask cluster, DASK_SCHEDULER)
        # floor_check_samples: labelled inputs per SNR for the floor against the experiments' labels
        "paper": dict(bootstrap=2000, floor_samples=4096, floor_check_samples=100_000, authors_seeds=5, authors_epochs=2000, authors_cells="subset",
                      authors_groups=(("rank-10", 100, 100, 1), ("rank-10", 400, 400, 1), ("rank-3", 100, 100, 1),
                                      ("aux-train-pts", 100, 400, 1), ("deep-nonlinear", 200, 200, 1),
                                      ("deep-nonlinear", 200, 200, 3))),
        "smoke": dict(bootstrap=200, floor_samples=512, floor_check_samples=20_000, authors_seeds=3, authors_epochs=200, authors_cells="subset",
                      authors_groups=(("rank-10", 100, 100, 1),)),
    },
    "ln-relation": {  # the benefit here vs the transfer benefit of Lampinen & Ganguli §4
        "paper": dict(seeds=5, n_train=100, steps=300, mse_lr=0.02, mse_steps=5000),
        "smoke": dict(seeds=5, n_train=100, steps=150, mse_lr=0.02, mse_steps=2500),
    },
    # Lampinen & Ganguli (2019) §3.2, Fig. 2: the teacher buried in the training data.
    "lg-rmt": {
        "paper": dict(
            n1=1000,  # inputs = examples, as the authors' script
            aspects=(1.0, 0.75, 0.5, 0.25),
            repeats=10,
            sbar_max=5.0,
            sbar_step=0.05,
            rank3_aspects=(0.5, 1.0),
            finite_size_n1=(125, 250, 500, 1000),
            finite_size_repeats=10,
        ),
        "smoke": dict(
            n1=200,
            aspects=(1.0, 0.75, 0.5, 0.25),
            repeats=12,  # the MP law's KS distance and each point's standard error must resolve a 5-10 % error
            sbar_max=5.0,
            sbar_step=0.25,
            rank3_aspects=(0.5, 1.0),
            finite_size_n1=(50, 100, 200),
            finite_size_repeats=3,
        ),
    },
    # Lampinen & Ganguli (2019) §3.1 and App. A, Fig. 1: TA mode dynamics at three depths.
    "lg-mode-dynamics": {
        "paper": dict(
            n1=100, shat_min=0.25, shat_max=4.0, n_modes=41,  # designed spectrum 0.25 * 2^(k/10)
            depths=(3, 4, 5), lrs=(2e-3, 1e-2, 1.5e-2),  # one per depth, lr max|f'| <= 0.5 (gd_lag_accuracy)
            horizon=2.0,  # in half-learning times of the weakest mode
            n_records=400,
        ),
        "smoke": dict(
            n1=30, shat_min=0.5, shat_max=4.0, n_modes=13,
            depths=(3, 4, 5), lrs=(5e-3, 2e-2, 1.5e-2), horizon=2.0, n_records=200,
        ),
    },
    # Lampinen & Ganguli (2019) §3.3-3.4, Fig. 3: one hidden layer, TA vs random vs theory.
    "lg-generalisation": {
        "paper": dict(
            n1=100, n2=50, n3=50, svms=(0.84, 2.0, 4.0, 6.0, 8.0), ranks=(1, 3), runs=10,
            lr=1e-3, horizon=10.0, n_records=150,  # the authors' 10,000 epochs at lr 1e-3
            mc_draws=200, finite_size_n1=(100, 200, 400), finite_size_draws=20,
        ),
        # smoke: N1 = 80 and 12 runs, so that the direct claims on eq. (15)'s optimum (finite-size allowance
        # (Nbar2 + 1)/N3, 3 standard errors of a mean over the runs) resolve a 30 % error of it
        "smoke": dict(
            n1=80, n2=40, n3=40, svms=(2.0, 6.0), ranks=(1, 3), runs=12,
            lr=5e-3, horizon=10.0, n_records=100,
            mc_draws=100, finite_size_n1=(40, 80, 160), finite_size_draws=10,
        ),
    },
    # Lampinen & Ganguli (2019) §3.4 and App. A, Fig. 4: three hidden layers.
    "lg-generalisation-deep": {
        "paper": dict(
            n1=100, n2=50, n3=50, svms=(0.84, 2.0, 4.0, 6.0, 8.0), ranks=(1, 3), runs=10,
            lr=4e-3, horizon=150.0, n_records=150,  # the authors' horizon: 150,000 epochs at 1e-3
            mc_draws=100, side_lr=1e-3, side_horizon=115.0,  # covers the svm = 2 random optimum
            # random students' excess over TA, measured: more data sets at the contested SNRs, and larger
            # initial scales (less time to align in the small-weight regime), each over a horizon that
            # covers its optimum
            excess_svms=(2.0, 4.0), excess_runs=24, excess_horizon=200.0,
            excess_eps=(1e-4, 1e-3, 1e-2), excess_eps_horizons=(60.0, 25.0, 15.0),
        ),
        "smoke": dict(
            n1=80, n2=40, n3=40, svms=(2.0, 4.0), ranks=(1, 3), runs=12,
            lr=1e-2, horizon=150.0, n_records=100,
            mc_draws=50, side_lr=5e-3, side_horizon=45.0,
            excess_svms=(2.0,), excess_runs=24, excess_horizon=200.0,
            excess_eps=(1e-3, 1e-2), excess_eps_horizons=(25.0, 15.0),
        ),
    },
    # Lampinen & Ganguli (2019) App. B, Fig. 9: alignment lag of random students.
    "lg-alignment": {
        "paper": dict(
            n1=100, n2=50, n3=50, svm=2.0, ranks=(1, 3), runs=10,
            depths=(3, 5), lrs=(1e-3, 2e-2), horizons=(10.0, 150.0), n_records=200,
            side_lr=1e-3,  # the authors' rate, for a side-by-side of the deep students
        ),
        "smoke": dict(
            n1=40, n2=20, n3=20, svm=2.0, ranks=(1, 3), runs=4,
            depths=(3, 5), lrs=(5e-3, 2e-2), horizons=(10.0, 150.0), n_records=150,
            side_lr=5e-3,
        ),
    },
    # Lampinen & Ganguli (2019) App. H, Fig. 14: students of lower rank, N1 = N3 = 100.
    "lg-low-rank": {
        "paper": dict(
            n1=100, n3=100, student_ranks=(100, 50, 20, 10, 5), svms=(1.5, 2.0, 3.0, 4.0, 6.0, 8.0),
            runs=10, lr=1e-2, horizon=10.0, n_records=150,
        ),
        "smoke": dict(
            n1=30, n3=30, student_ranks=(30, 10, 5), svms=(2.0, 6.0),
            runs=16,  # the optimum claims must resolve a 30 % error of eq. (15) (4 runs: 88 %)
            lr=1e-2, horizon=10.0, n_records=100,
        ),
    },
    # Lampinen & Ganguli (2019) §3.7 and App. E, Fig. 11: optimal shrinkage vs early stopping.
    "lg-nongradient": {
        "paper": dict(
            n1=100, n2=50, n3=50, svms=(0.84, 2.0, 4.0, 6.0, 8.0), runs=10,
            lr=1e-2, horizon=10.0, n_records=300,  # the authors' horizon (10,000 epochs at 1e-3)
            finite_size_n1=(100, 200, 400, 800), finite_size_runs=400,  # 3 SE of the exponents: 0.07-0.2
        ),
        "smoke": dict(
            n1=40, n2=20, n3=20, svms=(0.84, 2.0, 4.0, 6.0, 8.0), runs=30,
            lr=1e-2, horizon=10.0, n_records=200,
            finite_size_n1=(50, 100, 200, 400), finite_size_runs=120,
        ),
    },
    # Lampinen & Ganguli (2019) §4 and App. D, Figs. 8 and 10: transfer between two tasks.
    "lg-transfer": {
        "paper": dict(
            n1=100, n2=50, n3=50, sbar_a=(0.84, 3.0, 100.0), sbar_b=(0.84, 3.0, 10.0, 30.0, 100.0),
            q_steps=11, runs=10,  # the authors' grid: q in {0, 0.1, ..., 1}, 10 runs
            lr=5e-3, horizon=5.0, n_records=300,  # the authors' horizon (5000 epochs at 1e-3)
            theorem_runs=10, general_runs=10, finite_size_n1=(100, 200, 400), finite_size_draws=160,
        ),
        "smoke": dict(
            n1=40, n2=20, n3=20, sbar_a=(0.84, 3.0, 100.0), sbar_b=(0.84, 10.0, 100.0),
            q_steps=5, runs=4, lr=5e-3, horizon=5.0, n_records=200,
            theorem_runs=4, general_runs=4, finite_size_n1=(20, 40, 80, 160), finite_size_draws=16,
        ),
    },
    # Lampinen & Ganguli (2019) §3.6, Fig. 6: randomised vs structured data.
    "lg-randomised": {
        "paper": dict(
            n1=100, n2=50, n3=50, svms=(2.0, 4.0, 8.0), runs=10,  # rank-1 and rank-3 teachers
            lr=1e-2, horizon=10.0, n_records=300,
        ),
        "smoke": dict(
            n1=40, n2=20, n3=20, svms=(2.0, 4.0, 8.0), runs=6,
            lr=1e-2, horizon=10.0, n_records=200,
        ),
    },
    # Lampinen & Ganguli (2019) App. G, Fig. 13: P examples in N1 dimensions.
    "lg-examples": {
        "paper": dict(
            n1=100, densities=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),  # P = 20, 40, ..., 200
            svms=(2.0, 3.0, 4.0), runs=10, lr=2e-2, horizon=10.0, n_records=200,
        ),
        "smoke": dict(
            n1=40, densities=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
            svms=(2.0, 3.0, 4.0), runs=4, lr=2e-2, horizon=10.0, n_records=150,
        ),
    },
    # Lampinen & Ganguli (2019) §3.5, Fig. 5: leaky-ReLU students of linear teachers.
    "lg-nonlinear": {
        "paper": dict(
            n1=100, n2=50, n3=50, svms=(0.84, 2.0, 4.0, 6.0, 8.0), runs=10, eps=1e-4,  # eps of the authors' script
            lr=1e-2, horizon=10.0, n_records=150,
            deep_svms=(4.0,), deep_runs=8, deep_lr=8e-3, deep_horizon=150.0,  # three hidden layers, the authors' horizon
            # the authors' setting of Fig. 5 (their script): leak 0.1, linear output layer, eps 1e-5,
            # noise variance 1/50 per entry; one hidden layer to t/tau = 8 (both ranks), three
            # hidden layers to t/tau = 100 (rank 1: 150, past the linear students' onset), per teacher
            # (rank, svm, lr, horizon): lr at most about a third of the stability limit (the authors'
            # 2e-4 at rank 3, svm 30, where 30 tau decides); rank 1 at svm 30 would need > 1e5 steps
            authors_svms=(5.0, 10.0, 30.0), authors_runs=6, authors_slope=0.1, authors_eps=1e-5,
            authors_noise_var=0.02, authors_lr=1e-3, authors_horizon=8.0,
            authors_deep=((3, 5.0, 2e-3, 100.0), (3, 10.0, 1e-3, 100.0), (3, 30.0, 2.5e-4, 30.0),
                          (1, 5.0, 5e-3, 150.0), (1, 10.0, 3e-3, 150.0)),
        ),
        "smoke": dict(
            n1=40, n2=20, n3=20, svms=(2.0, 4.0, 8.0), runs=4, eps=1e-4,
            lr=1e-2, horizon=10.0, n_records=120,
            deep_svms=(4.0,), deep_runs=6, deep_lr=8e-3, deep_horizon=150.0,
            authors_svms=(5.0, 10.0, 30.0), authors_runs=4, authors_slope=0.1, authors_eps=1e-5,
            authors_noise_var=0.02, authors_lr=2e-3, authors_horizon=8.0,
            authors_deep=((3, 10.0, 2e-3, 80.0), (1, 5.0, 5e-3, 200.0)),
        ),
    },
    # Lampinen & Ganguli (2019) App. F, Fig. 12: transfer between leaky-ReLU tasks.
    "lg-nonlinear-transfer": {
        "paper": dict(
            n1=100, n2=50, n3=50, svm_a=(0.84, 3.0, 100.0), svm_b=(0.84, 3.0, 10.0, 30.0, 100.0),
            q_steps=6, runs=10, eps=1e-4,  # q in {0, 0.2, ..., 1} as the authors' nonlinear script
            lr=5e-3, horizon=5.0, n_records=200, authors_runs=10, init_runs=20,
        ),
        "smoke": dict(
            n1=40, n2=20, n3=20, svm_a=(0.84, 3.0, 100.0), svm_b=(0.84, 10.0, 100.0),
            q_steps=3, runs=4, eps=1e-4, lr=5e-3, horizon=5.0, n_records=150, authors_runs=8,
            init_runs=48,  # more than at paper scale: the smaller networks separate the two inits less
        ),
    },
    # Goldt, Advani, Saxe, Krzakala & Zdeborova (2019) §1, Fig. 1: SGD vs the ODEs (9).
    "goldt-sec1": {
        "paper": dict(
            n=784,  # N of Fig. 1
            ks=(2, 4, 6, 8),  # student sizes (M = 4)
            alpha_max=5000.0,  # length of the runs of Fig. 1
            n_times=60,  # recorded times (log grid)
            spread_runs=8,  # extra SGD runs per K for the band of Fig. 1 and the escape times
            early_runs=32,  # extra SGD runs per K up to early_alpha, for the prediction interval
            early_alpha=20.0,  # end of the compared approach to the plateau
            finite_size_n=(100, 200, 400, 800, 1600, 3200, 6400),
            finite_size_runs=10,
            finite_size_weights_n=(100, 200, 400, 800),  # sizes also run with the weight-space engine
        ),
        "smoke": dict(
            n=200,
            ks=(2, 4),
            alpha_max=2000.0,
            n_times=40,
            spread_runs=4,
            early_runs=12,
            early_alpha=10.0,
            finite_size_n=(50, 100, 200, 400),
            finite_size_runs=4,
            finite_size_weights_n=(50, 100),
        ),
    },
    # §2, Fig. 2 and SM: asymptotic error of soft committee machines, eqs. (10)-(13).
    "goldt-sec2": {
        "paper": dict(
            n=784,
            erf_ls=(0, 1, 2),  # L = K - M, M = 2 (for L >= 2 there is no settled state: see the long-time section)
            erf_alpha=1e5,
            fig2b_l=3,  # Fig. 2b: K = 5, the paper's (a run of its own when L is not in erf_ls)
            scaling_l=1,  # eps_g* against sigma and eta in simulation, from near the specialised state
            scaling_sigmas=(0.005, 0.01, 0.02, 0.04),  # at eta = 0.05
            scaling_lrs=(0.025, 0.1, 0.2),  # at sigma = 0.01
            scaling_alpha=2e4,
            decay_ls=(1, 2),  # weight decay, from near the specialised state over scaling_alpha
            weight_decays=(1e-6, 1e-5, 1e-4),
            long_alpha=1e8,  # long ODE runs along the slow manifold of anti-parallel superfluous units
            long_ls=(2, 3, 4),
            long_seeds=3,  # starts drawn like the SGD runs' (i.i.d. N(0, 1) weights)
            manifold_qs=tuple(float(f"{q:.3g}") for q in np.logspace(-2, 4, 13)),  # squared norms of the pairs
            linear_ls=(0, 1, 2, 3, 4),
            linear_alpha=2000.0,
            relu_ls=(0, 1, 2, 3),
            relu_lrs=(0.05, 0.1),
            relu_alpha=2e4,
            inverse_k_ls=(0, 1, 2),  # eta = 1/K (Fig. S2)
            inverse_k_alpha=2e4,
        ),
        "smoke": dict(
            n=200,
            erf_ls=(0, 1),
            erf_alpha=1.5e4,
            fig2b_l=1,
            scaling_l=1,
            scaling_sigmas=(0.01, 0.04),
            scaling_lrs=(0.1,),
            scaling_alpha=4000.0,
            decay_ls=(1,),
            weight_decays=(1e-5,),
            long_alpha=1e8,
            long_ls=(2, 3),
            long_seeds=1,
            manifold_qs=(0.01, 0.1, 1.0, 10.0, 1e3, 1e4),
            linear_ls=(0, 1, 2),
            linear_alpha=500.0,
            relu_ls=(0, 2),
            relu_lrs=(0.05, 0.1),
            relu_alpha=4000.0,
            inverse_k_ls=(0, 1),
            inverse_k_alpha=5000.0,
        ),
    },
    # §3, Figs. 3 and 4: training both layers.
    "goldt-sec3": {
        "paper": dict(
            n=500,
            ks=(2, 3, 4, 5, 6),  # Fig. 3a, M = 2
            alpha_max=5e4,
            long_alpha=2e8,  # long ODE runs: the copies' split of v* relaxes on ~2e7 (see the chapter)
            long_ks=(4, 6),
            long_seeds=2,  # starts drawn like the SGD runs' (the first is the Fig. 3a run's own)
            theory_ks=(2, 4, 6, 8),  # Fig. 3c (ODE fixed points), M = 1, 2
            ode_alpha=1e6,
            linear_n=100,  # Fig. 4
            linear_ks=(1, 2, 4, 8),
            linear_runs=5,
            linear_alpha=2e4,
        ),
        "smoke": dict(
            n=100,
            ks=(2, 4),
            alpha_max=2e5,  # Fig. 3a: from some starts (seed 1) K = 4 has uneven copies until alpha ~ 1e5
            long_alpha=4e7,
            long_ks=(4,),
            long_seeds=1,
            theory_ks=(2, 4),
            ode_alpha=2e5,  # Fig. 3c: the copies equalise on ~1/(eta^2 sigma^2); at 2e4 K = 4 had not settled
            linear_n=50,
            linear_ks=(1, 2),
            linear_runs=8,  # runs per point of Fig. 4: the flat-in-K claim needs the runs' spread (t quantile, 7 dof)
            linear_alpha=4000.0,
        ),
    },
    # Advani, Saxe & Sompolinsky (2020), slides eqs. (1)-(6): exact dynamics of the linear student.
    "as-toy-model": {
        "paper": dict(
            n=400,  # input dimension N of the main experiment
            alphas=(0.5, 1.0, 2.0),  # loads P/N
            repeats=6,  # datasets per load
            teachers=8,  # teacher / noise / initialisation draws per dataset trained by gradient descent
            flow_teachers=64,  # draws per dataset trained by the exact flow (the first `teachers` shared)
            snr=4.0,
            inr=0.25,
            lr=0.05,  # gradient-descent step (time t = steps * lr in units of tau)
            gd_steps=2000,
            t_max=1e4,  # longest time of the exact flow
            finite_size_n=(100, 200, 400, 800),
            finite_size_repeats=256,  # datasets per N (spectra only; the t = inf claim's standard error)
            finite_size_sim_repeats=6,  # datasets per N for the raw simulation
        ),
        "smoke": dict(
            n=100,
            alphas=(0.5, 1.0, 2.0),
            repeats=3,
            teachers=4,
            flow_teachers=32,
            snr=4.0,
            inr=0.25,
            lr=0.05,
            gd_steps=400,
            t_max=1e3,
            finite_size_n=(50, 100, 200),
            finite_size_repeats=128,
            finite_size_sim_repeats=2,
        ),
    },
    # Advani, Saxe & Sompolinsky (2020), slides "Interpreting (5)", "Double Descent", eq. (6).
    "as-double-descent": {
        "paper": dict(
            n=300,
            alphas=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.2, 1.3, 1.4, 1.5, 1.7, 1.9,
                    2.1, 2.3, 2.5, 2.75, 3.0),
            repeats=8,  # datasets per load
            teachers=16,  # teacher / noise / initialisation draws per dataset
            snrs=(1.0, 4.0, 16.0),  # SNRs of the double-descent curves (INR = 0)
            snr_inr=4.0,  # SNR of the INR sweep
            inrs=(0.5, 1.0, 2.0),  # INRs of the sweep (INR = 0 is the curve above)
            inr_sweep_alphas=(0.5, 2.0),
        ),
        "smoke": dict(
            n=80,
            alphas=(0.2, 0.5, 0.8, 0.9, 1.0, 1.1, 1.3, 1.6, 2.0, 3.0),
            repeats=3,
            teachers=8,
            snrs=(1.0, 4.0, 16.0),
            snr_inr=4.0,
            inrs=(0.5, 1.0, 2.0),
            inr_sweep_alphas=(0.5, 2.0),
        ),
    },
    # Advani, Saxe & Sompolinsky (2020): early stopping against optimal L2 regularisation, the
    # (alpha, SNR) maps of the early-stopping time and error, and how t_opt grows with SNR.
    "as-early-stopping-ridge": {
        "paper": dict(
            map_points=41,  # alpha and SNR grid points of the maps (log grids through 1)
            alpha_range=(0.1, 10.0),
            snr_range=(0.1, 1e4),
            curve_alphas=(0.5, 1.0, 2.0),
            curve_snrs=(1.0, 1e5),
            curve_points=26,
            n=1000,  # finite-N datasets: dimension N, datasets per load, loads, SNR
            datasets=24,
            sim_alphas=(0.5, 2.0, 1.0),  # alpha = 1 last: the earlier loads keep their draws
            sim_snr=4.0,
        ),
        "smoke": dict(
            map_points=9,
            alpha_range=(0.1, 10.0),
            snr_range=(0.1, 1e4),
            curve_alphas=(0.5, 1.0, 2.0),
            curve_snrs=(1.0, 1e5),
            curve_points=6,
            n=200,
            datasets=8,
            sim_alphas=(0.5, 2.0, 1.0),  # alpha = 1 last: the earlier loads keep their draws
            sim_snr=4.0,
        ),
    },
    # Advani, Saxe & Sompolinsky (2020), Sec. 6, Figs. 7-9: random-feature students of a ReLU teacher.
    # Fig. 7 caption: P = 300, 50 seeds; N_i = 15, a 30-unit teacher and SNR = 1 from notes on the
    # arXiv version (not in the caption text we have). Fig. 9 caption: 20-unit noiseless teacher,
    # P = 50, 500 trials, 5,000 test examples; its N_i and widths are ours.
    "as-nonlinear-teacher": {
        "paper": dict(
            n_in=15,
            teacher_hidden=30,
            n_samples=300,
            repeats=50,
            snr=1.0,
            snrs=(0.1, 10.0),  # Fig. 8: a low and a high SNR (our values)
            hidden=(10, 14, 19, 26, 36, 49, 67, 92, 126, 150, 173, 238, 300, 326, 448, 600, 845, 1159, 1592,
                    2185, 3000),
            t_max=1e5,
            decomposition_teacher_hidden=20,
            decomposition_samples=50,
            decomposition_repeats=500,
            decomposition_hidden=(5, 7, 9, 13, 17, 23, 32, 43, 50, 58, 79, 108, 146, 199, 271, 368, 500),
            n_test=5000,
        ),
        "smoke": dict(
            n_in=15,
            teacher_hidden=30,
            n_samples=60,
            repeats=16,
            snr=1.0,
            snrs=(0.1, 10.0),
            hidden=(6, 10, 16, 24, 30, 40, 60, 72, 90, 120, 180, 300, 600),
            t_max=1e5,
            decomposition_teacher_hidden=20,
            decomposition_samples=50,
            decomposition_repeats=150,
            decomposition_hidden=(5, 9, 17, 25, 43, 50, 58, 100, 200, 400),
            n_test=1000,
        ),
    },
    # Advani, Saxe & Sompolinsky (2020), slides' memorisation puzzle and bounds (7)-(12).
    "as-bounds": {
        "paper": dict(
            n_in=100,  # input dimension N_i of the width sweep
            n_samples=200,  # training examples P
            hidden=(40, 80, 120, 160, 180, 220, 250, 300, 400, 600, 800, 1200, 1600, 3200, 6400),
            repeats=8,  # seeds (inputs, first layer, teacher)
            snr=4.0,
            n_test=1000,
            delta=0.05,  # failure probability of the bound (7)
            mem_n_in=50,  # memorisation run: N_i, P, N_h
            mem_samples=100,
            mem_hidden=400,
            mem_repeats=4,
            mem_teachers=16,  # label draws of each kind per network
            mem_steps=4000,
        ),
        "smoke": dict(
            n_in=30,
            n_samples=60,
            hidden=(15, 30, 45, 55, 70, 90, 120, 240, 480, 960),
            repeats=3,
            snr=4.0,
            n_test=300,
            delta=0.05,
            mem_n_in=20,
            mem_samples=40,
            mem_hidden=160,
            mem_repeats=2,
            mem_teachers=8,
            mem_steps=1500,
        ),
    },
}


@dataclass(frozen=True)
class RunConfig:
    """The resolved configuration of one notebook run; sizes read as attributes."""

    chapter: str
    scale: str
    seed: int
    device: str
    sizes: MappingProxyType = field(repr=False)
    #: Address of a Dask scheduler that runs the chapter's grids ("" = local processes).
    scheduler: str = ""

    def __getattr__(self, name):
        try:
            return self.sizes[name]
        except KeyError:
            raise AttributeError(f"chapter {self.chapter!r} has no size {name!r}; "
                                 f"known: {sorted(self.sizes)}") from None

    def describe(self):
        """One line per setting, for the top of a chapter."""
        rows = [f"scale={self.scale}", f"seed={self.seed}", f"device={self.device}"]
        rows += [f"scheduler={self.scheduler}"] if self.scheduler else []
        rows += [f"{k}={v}" for k, v in self.sizes.items()]
        return ", ".join(rows)


def check_device(device):
    """Return a valid torch device string or raise naming the allowed values."""
    return str(_checks.torch_device(device, "DEVICE"))


#: The largest SEED: torch's and numpy's seeding take any integer in [0, 2**63).
MAX_SEED = 2**63 - 1

#: Names a notebook's kernel holds that are not parameters (IPython's own).
_KERNEL_NAMES = {"In", "Out", "get_ipython", "exit", "quit", "open"}


def _minimum(name, default):
    """The smallest value an integer size may take: 1 for a period (``*_every``), else 2
    (one repeat, mode, sample or record leaves no spread to measure and no curve to fit)."""
    return 1 if name.endswith("_every") else 2


#: Sizes that are a choice among words rather than a number, and their allowed values.
CHOICES = {"authors_cells": ("subset", "all")}


def _check_size(chapter, name, value, default, *, item_of=None):
    """An override must have the type of the default and a value that can serve (sizes, counts)."""
    def bad(allowed):
        what = f"an item of {name.upper()}" if item_of is not None else name.upper()
        return ValueError(f"{what}={value!r} (size {name} of chapter {chapter!r}) is not allowed: {allowed}")

    if name in CHOICES and item_of is None:
        if value not in CHOICES[name]:
            raise bad(f"expected one of {list(CHOICES[name])}")
        return value

    if isinstance(default, tuple) and default and isinstance(default[0], tuple):  # a list of records
        like = list(default[0])
        if not isinstance(value, (tuple, list)) or len(value) == 0:
            raise bad(f"expected a non-empty list of records like {like}")
        for item in value:
            if (not isinstance(item, (tuple, list)) or len(item) != len(like)
                    or any(isinstance(v, bool) or not isinstance(v, type(d)) or (isinstance(d, int) and v < 1)
                           for v, d in zip(item, like))):
                raise bad(f"expected records like {like} (text where it has text, integers >= 1 where it has "
                          f"numbers)")
        return tuple(tuple(item) for item in value)
    if isinstance(default, tuple):
        if not isinstance(value, (tuple, list)) or len(value) == 0:
            raise bad(f"expected a non-empty list like {list(default)}")
        for item in value:
            _check_size(chapter, name, item, default[0], item_of=default)
        return tuple(value)
    if isinstance(default, bool) or isinstance(value, (bool, np.bool_)):
        raise bad("expected a number")
    if isinstance(default, int):
        lowest = (0 if min(item_of) == 0 else 1) if item_of is not None else _minimum(name, default)
        if not isinstance(value, (int, np.integer)) or value < lowest:
            raise bad(f"expected an integer >= {lowest}")
        return int(value)
    if not isinstance(value, (int, float, np.integer, np.floating)) or not math.isfinite(value) or value <= 0:
        raise bad("expected a finite number > 0")
    return float(value)


def _check_parameter_names(namespace, allowed):
    """Refuse any notebook parameter (a plain value in the kernel's namespace) not in ``allowed``:
    papermill injects unknown ``-p`` names without a word, so a typo would run the defaults."""
    unknown = sorted(
        name for name, value in namespace.items()
        if not name.startswith("_") and name not in _KERNEL_NAMES and name not in allowed
        and not (isinstance(value, (types.ModuleType, type)) or callable(value)))
    if unknown:
        raise ValueError(f"unknown notebook parameter(s) {', '.join(unknown)}: this chapter takes "
                         f"{', '.join(sorted(allowed))}")


def configure(chapter, scale, seed, device, *, namespace=None, scheduler=None, **overrides):
    """Resolve and check a notebook's parameters into a :class:`RunConfig`.

    Parameters
    ----------
    chapter : str
        Chapter id, a key of :data:`CHAPTERS`.
    scale : str
        One of :data:`SCALES`.
    seed : int
        Integer seed in ``[0, 2**63)``.
    device : str
        ``"cpu"``, ``"cuda"`` or ``"cuda:N"``.
    namespace : dict, optional
        The notebook's ``globals()``: then every plain value in it must be a parameter of
        this chapter (``SCALE``, ``SEED``, ``DEVICE`` and the upper-case names of
        ``overrides``), so that a mistyped papermill ``-p`` stops the run.
    scheduler : str, optional
        A chapter with grids passes its ``DASK_SCHEDULER`` parameter: the address of a
        Dask scheduler (e.g. ``"tcp://10.0.0.5:8786"``) that runs its grids, or ``""`` for
        local processes. ``None``: the chapter has no such parameter.
    **overrides
        Sizes to change from the scale's defaults; ``None`` keeps the default. Each must
        have the default's type; integers must be at least 2 (periods ``*_every``: 1),
        numbers finite and positive.
    """
    if chapter not in CHAPTERS:
        raise ValueError(f"unknown chapter {chapter!r}; known: {sorted(CHAPTERS)}")
    if namespace is not None:
        _check_parameter_names(namespace, {"SCALE", "SEED", "DEVICE"} | {k.upper() for k in overrides}
                               | (set() if scheduler is None else {"DASK_SCHEDULER"}))
    if scheduler is not None and not isinstance(scheduler, str):
        raise ValueError(f"DASK_SCHEDULER must be a scheduler address (str) or '' for local processes; "
                         f"got {scheduler!r}")
    if scale not in CHAPTERS[chapter]:
        raise ValueError(f"SCALE must be one of {list(CHAPTERS[chapter])}; got {scale!r}")
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"SEED must be an integer in [0, 2**63); got {seed!r}")
    device = check_device(device)
    sizes = dict(CHAPTERS[chapter][scale])
    for name, value in overrides.items():
        if value is None:
            continue
        if name not in sizes:
            raise ValueError(f"unknown size {name!r} for chapter {chapter!r}; known: {sorted(sizes)}")
        sizes[name] = _check_size(chapter, name, value, sizes[name])
    retain_freed_memory()  # large tensors without page-fault churn (results bit-identical)
    return RunConfig(chapter, scale, int(seed), device, MappingProxyType(sizes), scheduler or "")
