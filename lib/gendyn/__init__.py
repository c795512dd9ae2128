"""gendyn: theory and batched experiments for the generalisation dynamics of neural networks.

The library behind the executable companion book to Lampinen & Ganguli (2019),
Lee & Ndirango (2019), Goldt et al. (2019) and Advani, Saxe & Sompolinsky (2020).

Modules
-------
=================================  ==========================================================================
module                             contents
=================================  ==========================================================================
:mod:`~gendyn.rmt`                 random matrices: Marchenko-Pastur law, spiked singular values and vectors
:mod:`~gendyn.teachers`            teacher networks and the training data they generate (torch, batched)
:mod:`~gendyn.deep_linear`         Saxe mode dynamics and the Lampinen-Ganguli error theory, any depth
:mod:`~gendyn.train`               batched torch trainers for deep linear and leaky-ReLU students
:mod:`~gendyn.randomised`          randomised versus structured data: why random labels are learned later (§3.6)
:mod:`~gendyn.shrinkage`           a non-gradient algorithm that beats optimal early stopping (§3.7, App. E)
:mod:`~gendyn.transfer`            transfer between two tasks of one two-headed student (§4, App. D)
:mod:`~gendyn.sampling`            test-error dynamics with more or fewer examples than inputs (App. G)
:mod:`~gendyn.task_data`           batched data of the Lampinen & Ganguli experiments beyond one linear task
:mod:`~gendyn.linear_student`      Advani-Saxe(-Sompolinsky) linear student: MP-averaged error dynamics, bounds
:mod:`~gendyn.linear_experiments`  batched torch simulations of the linear student and of random-feature ReLU nets
:mod:`~gendyn.random_features`     random-feature ReLU students of a ReLU teacher: exact errors, error decomposition
:mod:`~gendyn.committee`           Goldt et al. soft committee machines: Gaussian averages, ODEs, asymptotics
:mod:`~gendyn.committee_sgd`       their online SGD: compiled weight-space loop and exact order-parameter chain
:mod:`~gendyn.softmax_multitask`   Lee-Ndirango softmax classifiers: reconstructed theory, M(W), TA dynamics,
                                   benefit bounds, the cross-entropy floor of noisy argmax labels
:mod:`~gendyn.multitask_train`     their batched single-task/multitask students and book grids
:mod:`~gendyn.interleaved_sgd`     their authors' protocol: interleaved minibatch SGD of two-headed students,
                                   batched; grid cells with paired single-task baselines (``train_cells``)
:mod:`~gendyn.published_runs`      the per-run results Lee & Ndirango published (carried in
                                   ``data/lee-ndirango-2019``); their cells matched with other runs, the
                                   label-entropy floor under their losses, the plan of a rerun
:mod:`~gendyn.seeding`             the one random-number convention: the ``rng`` argument, named streams
:mod:`~gendyn.allocator`           keep freed memory in the process (glibc): no page-fault churn in batched
                                   trainers
:mod:`~gendyn.concurrency`         independent calls (runs at different settings) side by side on the CPU threads,
                                   each the same bytes as alone
:mod:`~gendyn.progress`            terminal progress bars that stay out of rendered notebooks
:mod:`~gendyn.book`                the book's machinery (claims, checks, scales, stats, plotting, figures,
                                   grids) and each chapter's sizes, figures and claims (``book.chapters``, one module
                                   per notebook); the science above never imports it, nor matplotlib
=================================  ==========================================================================

Conventions
-----------
- **Types.** Every public function of the science modules states its types (PEP 484 hints;
  ``ArrayLike`` for inputs numpy converts); ``tests/test_layers.py`` checks that each has them
  (and those of ``gendyn.book.chapter``, ``checks``, ``plotting``, ``stats`` and every
  ``gendyn.book.chapters`` module).
- **Random numbers.** Every stochastic public function takes ``rng`` (an integer seed, a
  ``SeedSequence``, a torch or numpy generator, or ``None`` for fresh entropy), checked in one place;
  independent series take named streams, ``seeding.stream(SEED, "relu", L)``, never seed arithmetic
  (:mod:`~gendyn.seeding`; "seeds, generators, streams" below).
- **Bad input** raises ``ValueError`` naming the parameter and what is allowed; numerics
  raise rather than return NaN or inf silently (``tests/test_fuzz_*.py``).
- **Specs.** A run with many settings takes small frozen dataclasses that say what it is (the
  cells, the data, the students, the schedule, the precision, where it runs), checked when they are
  made: ``multitask_train.run_grid(GridCells(n_train=(100,)), seeds, schedule=GridSchedule(lr=0.1))``.
  No public function takes more than 8 parameters. The specs by module: ``deep_linear.TaStudent``
  (the student of the deep linear theory, also taken by ``transfer`` and ``randomised``);
  ``train.Architecture``, ``Schedule``, ``Start``, ``Evaluation``, ``Execution``;
  ``task_data.PairSpec``, ``LeakyTeachers``; ``teachers.SpikeExecution``; ``multitask_train.Grid*``,
  ``TeacherPair``, ``TrainingSets``, ``TrainOptions``; ``interleaved_sgd.Trunk``, ``SGDSchedule``,
  ``Execution``; ``settings_inference.Sweep``; ``committee.OrderParameters``, ``OnlineSGD``,
  ``ODESolver``; ``committee_sgd.Sampling``, ``Initialisation``; ``linear_experiments.Variances``,
  ``LinearLabels``, ``Execution``; ``random_features.TeacherLabels``. An ``Execution`` spec says where and
  how a module's runs compute (its fields differ by module). An older call form stays for one release with
  a ``DeprecationWarning`` that writes out the new one.
- **Mixed arithmetic.** ``multitask_train.GridPrecision(arithmetic="mixed")`` keeps float64 weights,
  updates and losses and takes the matrix products in float32; measured against float64 on the same draws
  it moves the deep ReLU benefits of Fig. A4 by several seed-to-seed SDs, so the book keeps float64 there
  (``benchmarks/a4_precision.py``).
- **Precision.** Theory is float64 numpy. The torch trainers take ``dtype`` (float32 by
  default for speed); use float64 where rounding reaches the result (the book's deep ReLU
  grid of Lee & Ndirango: ``multitask_train.GridPrecision(draw_dtype=...)`` separates the draws
  from the arithmetic, so the two precisions can be compared on the same data).

Names
-----
One name, one meaning, across the science modules. Each entry gives the name the API uses
(and its symbol), then the modules that still use another name, mostly the paper's own symbol
where the module's formulas are written in it.

input dimension
    ``n_features`` (``N``): :mod:`~gendyn.multitask_train`, :mod:`~gendyn.interleaved_sgd`,
    :mod:`~gendyn.linear_student`. Still ``n1`` (Lampinen & Ganguli's ``N1``; outputs ``n3``) in
    :mod:`~gendyn.deep_linear`, :mod:`~gendyn.train`, :mod:`~gendyn.transfer`,
    :mod:`~gendyn.sampling`, :mod:`~gendyn.randomised`, :mod:`~gendyn.task_data`; ``n_in`` (outputs
    ``n_out``) in :mod:`~gendyn.teachers`, :mod:`~gendyn.random_features` and
    ``linear_experiments.random_feature_*``; ``n`` in the other functions of
    :mod:`~gendyn.linear_experiments`; ``N`` in :mod:`~gendyn.committee` and
    :mod:`~gendyn.committee_sgd`.
examples
    An example is one (input, label) pair. Training examples ``P``: ``n_train`` (per task
    ``n_train_a``, ``n_train_b``; auxiliary ``n_train_aux``); held out: ``n_val``, ``n_test``; the
    load ``alpha = P/N`` (``alphas``). Still ``n_samples`` in :mod:`~gendyn.linear_student`,
    :mod:`~gendyn.linear_experiments` and :mod:`~gendyn.random_features`, ``n_examples`` in
    :mod:`~gendyn.sampling`, ``train_set_size`` in :mod:`~gendyn.committee_sgd`. Lampinen &
    Ganguli's main setting has ``P = N1`` and the aspect ratio ``aspect = N3/N1``. A *sample* is a
    Monte Carlo draw: ``n_samples`` of :mod:`~gendyn.softmax_multitask` counts those, not examples.
hidden width
    ``hidden`` (``H``): the units of every hidden layer (:mod:`~gendyn.train`,
    :mod:`~gendyn.multitask_train`, :mod:`~gendyn.interleaved_sgd`, :mod:`~gendyn.random_features`,
    ``linear_experiments.random_feature_relu``). Still ``n2`` (``N2``) in the Lampinen & Ganguli
    theory, ``n_hidden`` in the bounds of :mod:`~gendyn.linear_student` and in
    ``linear_experiments.random_feature_gd``, ``K`` (student) and ``M`` (teacher) in
    :mod:`~gendyn.committee` and :mod:`~gendyn.committee_sgd`; a teacher's width is
    ``teacher_hidden`` in :mod:`~gendyn.random_features`.
depth, trunk depth
    ``depth``: the number of hidden layers. In the students of :mod:`~gendyn.multitask_train` and
    :mod:`~gendyn.interleaved_sgd` every hidden layer belongs to the trunk the heads share, so
    ``depth`` is the trunk depth (formerly ``n_layers`` in ``interleaved_sgd``, accepted for one
    more release with a ``DeprecationWarning``; the authors' data in :mod:`~gendyn.published_runs`
    call it ``nlayers``).
    ``n_layers`` is another quantity, the paper's ``N_l``: layers of *units*, input and output
    included, so ``n_layers = depth + 2`` and ``N_l - 1`` weight matrices (:mod:`~gendyn.train`,
    :mod:`~gendyn.deep_linear`, :mod:`~gendyn.transfer`, :mod:`~gendyn.sampling`,
    :mod:`~gendyn.randomised`, ``softmax_multitask.ta_rate`` and ``ta_trajectory``).
teacher, student
    The teacher makes the labels; the student is trained. Teacher quantities carry its name
    (``teacher``, ``teacher_svals``, ``teacher_var``, ``teacher_hidden``; Goldt et al.'s ``w_star``,
    ``v_star``), the student's do not (``weights``, ``params``, ``w``, ``v``). A teacher's singular
    values are ``teacher_svals``; still ``svals`` (``svals_a``, ``svals_b``) or ``sbar``
    (``sbar_a``) in :mod:`~gendyn.rmt`, :mod:`~gendyn.teachers`, :mod:`~gendyn.task_data` and
    :mod:`~gendyn.transfer`.
SNR
    ``snr``: the teacher's output variance over the label noise's (:mod:`~gendyn.linear_student`,
    :mod:`~gendyn.linear_experiments`, :mod:`~gendyn.random_features`); ``inr``: the initial
    weights' variance over the teacher's. Where a paper fixes the noise and scales the teacher,
    the scale is the SNR under the paper's name: ``sbar`` (teacher singular values, noise entries
    of variance ``noise_std**2 / N1``), ``svm`` (multiplier of a teacher profile) and ``shat``
    (singular values of the training data) for Lampinen & Ganguli; ``s_a``, ``s_b``, ``s`` (logit
    noise ``1/sqrt(N)``) for Lee & Ndirango. A noise's standard deviation is ``noise_std``
    (``sigma`` in :mod:`~gendyn.committee` and :mod:`~gendyn.committee_sgd`).
rank
    ``rank``: a teacher's rank, the number of its nonzero singular values (``Nbar2``; in
    :mod:`~gendyn.multitask_train` also the default ``n_classes``); ``r`` in
    ``teachers.random_orthonormal``. A student's rank is its width (``n2``, App. H). ``r`` of
    :mod:`~gendyn.multitask_train` is the relatedness of two tasks, not a rank.
learning rate, time
    ``lr``: the step size of gradient descent or SGD (``lr2``: the second layer's, Goldt et al.'s
    ``eta_v``). Gradient flow has the time constant ``tau = 1/lr``, and times ``t`` or ``times``
    are in units of ``tau``: ``k`` steps are ``t = k lr``. ``steps`` counts steps, ``epochs``
    passes over the training set (one full-batch step in :mod:`~gendyn.train`; every minibatch of
    task A in :mod:`~gendyn.interleaved_sgd`). Goldt et al.'s time ``alpha = steps / N`` (``times``,
    ``alpha_max``) is not the load ``alpha = P/N``.
seeds, generators, streams
    ``rng``: the random-number argument of every stochastic public function: an ``int >= 0`` (a
    seed), a ``numpy.random.SeedSequence`` (a named stream), a torch or numpy generator (drawn from
    as it is) or ``None`` (fresh entropy). :mod:`~gendyn.seeding` validates it in one place and
    derives independent named streams from it (``stream(rng, "teacher")``, ``stream(SEED, "relu",
    L)``): no seed arithmetic. ``seeds``: one integer ``rng`` per independent run of a function
    batched over runs (:mod:`~gendyn.multitask_train`, :mod:`~gendyn.interleaved_sgd`,
    :mod:`~gendyn.settings_inference`), whose draws depend on its seed alone (under the authors'
    data protocol, ``train_cells(data=...)``, the seeds are train seeds that permute one shared
    draw; ``AuthorsData`` keeps the authors' ``data_seed`` and ``model_seed``). Specs carry the
    argument as a field: ``linear_experiments.Execution(rng=...)``,
    ``multitask_train.TrainOptions(batch_rng=...)``. A function with several independent sources of
    randomness draws each from its own named stream of ``rng`` (``committee_sgd``: one stream per run;
    ``multitask_train``: teacher, inputs, noise, initial weights). ``None`` is fresh entropy, so only
    an explicit ``rng`` repeats a result; the book's runs refuse ``None`` (``$GENDYN_REQUIRE_RNG``).
    The former keywords ``generator=`` and ``seed=`` are accepted for one more release with a
    ``DeprecationWarning``. Independent draws per setting are ``repeats`` (:mod:`~gendyn.teachers`,
    :mod:`~gendyn.linear_experiments`, :mod:`~gendyn.random_features`) or ``runs``
    (:mod:`~gendyn.train`, :mod:`~gendyn.task_data`, :mod:`~gendyn.committee_sgd`).
devices, dtypes
    ``device``: ``"cpu"``, ``"cuda"`` or ``"cuda:N"`` (below). ``dtype``: the torch dtype of the
    arithmetic, float32 by default where speed matters (the trainers of :mod:`~gendyn.train` and
    :mod:`~gendyn.multitask_train`, ``teachers.SpikeExecution``), float64 elsewhere; ``draw_dtype`` that of the random draws where the two may differ
    (``multitask_train.GridPrecision``).

Devices and random numbers
--------------------------
Every experiment runs on the CPU or on CUDA (``device="cpu"``, ``"cuda"`` or ``"cuda:N"``);
the same call on either device is the same experiment.

- **Where random numbers are drawn.** On the device of a ``torch.Generator`` passed as ``rng``,
  then moved to the device the computation runs on. The generators the library makes from an
  integer, a stream or ``None`` (:func:`gendyn.seeding.torch_generator`) live on the CPU. A CPU generator therefore gives the same data, initial weights and minibatches on any
  device, and a generator on one device is never an error for a computation on another.
- **Where results live.** Every result object holds numpy arrays on the host, whatever the
  device. The exceptions are ``train.TrainResult.weights`` and
  ``interleaved_sgd.InterleavedResult.params``, the final torch weights on the training
  device, kept so that training can continue from them.
- **Inputs** (tensors of data, teachers, weights) may live on any device: a trainer moves
  them to its ``device``.

``tests/test_devices.py`` checks the policy without a GPU (every draw of the library goes
through it; result types hold no tensors; chapters bring tensors to the host before numpy)
and, where a GPU is present, runs the same tiny experiments on both devices.
"""

__version__ = "0.1.0"
