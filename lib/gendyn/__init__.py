"""gendyn: theory and batched experiments for the generalisation dynamics of neural networks.

The library behind the executable companion book to Lampinen & Ganguli (2019),
Lee & Ndirango (2019), Goldt et al. (2019) and Advani, Saxe & Sompolinsky (2020).

Modules
-------
rmt                random matrices: Marchenko-Pastur law, spiked singular values and vectors
teachers           teacher networks and the training data they generate (torch, batched)
deep_linear        Saxe mode dynamics and the Lampinen-Ganguli error theory, any depth
train              batched torch trainers for deep linear and leaky-ReLU students
linear_student     Advani-Saxe(-Sompolinsky) linear student: MP-averaged error dynamics, bounds
linear_experiments batched torch simulations of the linear student and of random-feature ReLU nets
random_features    random-feature ReLU students of a ReLU teacher: exact errors, error decomposition
committee          Goldt et al. soft committee machines: Gaussian averages, ODEs, asymptotics
committee_sgd      their online SGD: compiled weight-space loop and exact order-parameter chain
softmax_multitask  Lee-Ndirango softmax classifiers: reconstructed theory, M(W), TA dynamics, benefit bounds,
                   the cross-entropy floor of noisy argmax labels
multitask_train    their batched single-task/multitask students and book grids
interleaved_sgd    their authors' protocol: interleaved minibatch SGD of two-headed students, batched;
                   grid cells with paired single-task baselines (train_cells)
published_runs     the per-run results Lee & Ndirango published (carried in data/lee-ndirango-2019)
allocator          keep freed memory in the process (glibc): no page-fault churn in batched trainers
progress           terminal progress bars that stay out of rendered notebooks
book               the book's machinery (claims, checks, scales, stats, plotting, figures, grids) and each
                   chapter's sizes, figures and claims (book.chapters, one module per notebook); the science
                   above never imports it (claims, scales, plotting: old names of book modules)

Conventions
-----------
- **Types.** Every public function of the science modules states its types (PEP 484 hints;
  ``ArrayLike`` for inputs numpy converts); ``tests/test_layers.py`` checks that each has them
  (and those of ``gendyn.book.chapter``, ``checks``, ``plotting``, ``stats`` and every
  ``gendyn.book.chapters`` module).
- **Bad input** raises ``ValueError`` naming the parameter and what is allowed; numerics
  raise rather than return NaN or inf silently (``tests/test_fuzz_*.py``).
- **Precision.** Theory is float64 numpy. The torch trainers take ``dtype`` (float32 by
  default for speed); use float64 where rounding reaches the result (the book's deep ReLU
  grid of Lee & Ndirango: ``multitask_train.run_grid(draw_dtype=...)`` separates the draws
  from the arithmetic, so the two precisions can be compared on the same data).

Devices and random numbers
--------------------------
Every experiment runs on the CPU or on CUDA (``device="cpu"``, ``"cuda"`` or ``"cuda:N"``);
the same call on either device is the same experiment.

- **Where random numbers are drawn.** On the device of the ``torch.Generator`` passed
  (``generator=``; ``None`` is torch's global CPU generator), then moved to the device the
  computation runs on. The library's own seeded generators (``seed=`` arguments) live on the
  CPU. A CPU generator therefore gives the same data, initial weights and minibatches on any
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
