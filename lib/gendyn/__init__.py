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
committee          Goldt et al. soft committee machines: Gaussian averages, ODEs, asymptotics
committee_sgd      their online SGD: compiled weight-space loop and exact order-parameter chain
softmax_multitask  Lee-Ndirango softmax classifiers: reconstructed theory, M(W), TA dynamics, benefit bounds
multitask_train    their batched single-task/multitask students and book grids
published_runs     the per-run results Lee & Ndirango published (carried in data/lee-ndirango-2019)
claims             checked theory-vs-experiment claims and the claims ledger
scales             run configurations ("smoke" for tests, "paper" for the book) and parameter checks
plotting           the book's figure style and figure files
progress           terminal progress bars that stay out of rendered notebooks
"""

__version__ = "0.1.0"
