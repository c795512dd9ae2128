# The two commands of the README:
#   make book   set up the environment if missing, run every chapter at the papers' scale,
#               build the book into _build/html
#   make test   set up the environment if missing, run the unit tests and every chapter at
#               the smoke scale (claims checked), and build the smoke-scale book
#
# Chapters are written as MyST Markdown notebooks, notebooks/<paper>/<chapter>.md (jupytext
# pairs them with Jupyter; tools/to_myst.py converts an .ipynb). tools/chapters.py converts each
# into an .ipynb in a temporary folder and executes it with papermill into
# _build/runs/<scale>/<paper>/<chapter>.ipynb. It re-executes a
# chapter whenever the identity of its run changes (the chapter's text, SEED, DEVICE, any PARAMS
# override, the library modules it imports, requirements.lock, the data those modules read),
# accepts a run only if all its claims
# passed and it reached ledger.finish(), and leaves nothing of a failed or interrupted run.
# The book is then built from the accepted runs with execution off, so what is rendered is
# exactly what ran and was checked.

# The interpreter that creates .venv: PYTHON=/path/to/python3.x, else the first of python3.11,
# python3.12 and python3.13 on the PATH that runs (a pyenv shim of a version not selected is on
# the PATH but does not run). 3.11 to 3.13 are supported (pyproject.toml's requires-python).
SUPPORTED_PYTHONS := 3.11 3.12 3.13
PYTHON ?= $(firstword $(foreach v,$(SUPPORTED_PYTHONS),$(shell python$(v) -c '' >/dev/null 2>&1 && echo python$(v))))
# torch's build: cpu (requirements/torch-cpu.lock, the CPU wheel, where pip finds it: here, for
# Python 3.11) or cuda (requirements/torch-cuda.lock, PyPI's Linux wheel with its CUDA
# libraries, several GB). Empty: cpu where pip finds the CPU wheel, else cuda.
TORCH  ?=
PY_CHECK := import sys; sys.exit(not (3, 11) <= sys.version_info[:2] <= (3, 13))
LOCKS  := requirements.lock requirements/pip.lock requirements/torch-cpu.lock requirements/torch-cuda.lock
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SCALE  ?= paper
SEED   ?= 0
DEVICE ?= cpu
PARAMS ?=
# PARAMS: further notebook parameters, e.g. PARAMS="-p REPEATS 5"

# JOBS: chapters run side by side (make book JOBS=4; make -j4 does the same). Each chapter then
# gets max(1, cores / JOBS) threads for torch, the BLAS libraries and its grid worker processes
# ($GENDYN_JOBS, read by tools/chapters.py: gendyn.book.threads). Only the chapter runs are
# parallel: staging and the book build wait for all of them. Concurrent output goes line by line
# and the progress bars are off (GENDYN_PROGRESS=1 turns them back on).
JOBS ?= 1
ifneq ($(JOBS),1)
MAKEFLAGS += -j$(JOBS) --output-sync=line
GENDYN_PROGRESS ?= 0
endif
# the -jN make runs with (JOBS or the command line's own -jN), for the chapters' share of the cores
jobs_now = $(or $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))),1)

# The chapters' sources (an .ipynb not converted yet by tools/to_myst.py runs as well), and the
# executed notebook of each: <paper>/<chapter>.ipynb under the runs folder.
NOTEBOOKS := $(shell find notebooks \( -name '*.md' -o -name '*.ipynb' \) -not -path '*/.ipynb_checkpoints/*' | sort)
CHAPTERS  := $(patsubst notebooks/%,%,$(NOTEBOOKS:.md=.ipynb))
RUNS      := _build/runs/$(SCALE)
RUN_ARGS   = --runs $(RUNS) -p SCALE $(SCALE) -p SEED $(SEED) -p DEVICE $(DEVICE) $(PARAMS)
EXECUTED  := $(addprefix $(RUNS)/,$(CHAPTERS))
# the same, longest first by the times benchmarks/results.json last recorded: under JOBS=N the long
# chapters start early instead of running alone at the end (tools/longest_first.py; Python's stdlib)
ORDERED   := $(or $(shell python3 tools/longest_first.py --scale $(SCALE) --device $(DEVICE) $(EXECUTED) 2>/dev/null),$(EXECUTED))
BOOK_OUT  := $(if $(filter paper,$(SCALE)),.,_build/$(SCALE))
STAGE     := book/generated

export GENDYN_PROGRESS ?= 1
export PYTHONHASHSEED := 0
# numpy's OpenBLAS on one thread: its threads make the small and medium SVDs of the tests and chapters
# several times slower on a few cores (gendyn.book.threads); torch (MKL, OpenMP) keeps its threads
export OPENBLAS_NUM_THREADS ?= 1

.PHONY: env runs stage book pdf latex browser-check test unit benchmarks mutants calibration lock clean FORCE

env: $(STAMP)

# Every file installed is checked against the hashes of the locks (pip --require-hashes), pip
# itself included: it is installed first, at its pinned version, never upgraded unpinned.
$(STAMP): $(LOCKS) pyproject.toml
	@if [ ! -x $(BIN)/python ]; then \
	  if [ -z "$(PYTHON)" ]; then \
	    echo "error: make needs Python 3.11, 3.12 or 3.13 to create $(VENV), and none of python3.11,"; \
	    echo "  python3.12, python3.13 runs here. Install one (Debian/Ubuntu: apt-get install python3-venv"; \
	    echo "  if python3 is 3.11-3.13; or pyenv install 3.12), or name it:"; \
	    echo "  make $(or $(MAKECMDGOALS),env) PYTHON=/path/to/python3.12"; exit 1; fi; \
	  $(PYTHON) -c '$(PY_CHECK)' || { echo "error: PYTHON=$(PYTHON) is not Python 3.11, 3.12 or 3.13 (or does not run)"; exit 1; }; \
	  echo "$(PYTHON) -m venv $(VENV)"; $(PYTHON) -m venv $(VENV) || exit 1; fi
	@$(BIN)/python -c '$(PY_CHECK)' || { \
	  echo "error: $(VENV) is not Python 3.11, 3.12 or 3.13: remove it and run make again"; exit 1; }
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements/pip.lock
	@torch="$(TORCH)"; \
	if [ -z "$$torch" ]; then \
	  if $(BIN)/python -m pip install --quiet --dry-run --no-deps --ignore-installed \
	       "$$(grep -o '^torch==[^ ]*' requirements/torch-cpu.lock)" >/dev/null 2>&1; \
	  then torch=cpu; else torch=cuda; fi; fi; \
	case "$$torch" in \
	  cpu) echo "torch: the CPU build (requirements/torch-cpu.lock)";; \
	  cuda) echo "torch: PyPI's build for Linux, with its CUDA libraries, several GB (requirements/torch-cuda.lock)";; \
	  *) echo "error: TORCH=$$torch: cpu or cuda"; exit 1;; esac; \
	echo "$(BIN)/python -m pip install --require-hashes -r requirements.lock -r requirements/torch-$$torch.lock"; \
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.lock -r requirements/torch-$$torch.lock
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

# One executed notebook per chapter, with its claims and figures in a folder of the same
# name beside it. FORCE: tools/chapters.py decides from the run's identity whether it is up
# to date (Make's timestamps miss a change of SEED, DEVICE or PARAMS).
$(RUNS)/%.ipynb: notebooks/%.md FORCE | $(STAMP)
	GENDYN_JOBS=$(jobs_now) $(BIN)/python tools/chapters.py run $< $(RUN_ARGS)

$(RUNS)/%.ipynb: notebooks/%.ipynb FORCE | $(STAMP)
	GENDYN_JOBS=$(jobs_now) $(BIN)/python tools/chapters.py run $< $(RUN_ARGS)

# The comparison with the published runs reads the grids of these two chapters from the shared
# cache: under -j it waits for them rather than computing the same grids at the same time.
$(RUNS)/lee-ndirango/published-data.ipynb: | $(RUNS)/lee-ndirango/aux-data-and-depth.ipynb \
                                            $(RUNS)/lee-ndirango/multitask-benefit.ipynb

FORCE:

runs: $(ORDERED)

# Stages the accepted runs of today's chapters (never a deleted chapter's, never one of
# another identity), the claims ledger, the execution statistics and the book's configuration
# with its provenance; fails, building nothing, if any chapter lacks an accepted run.
stage: runs
	$(BIN)/python tools/chapters.py stage --out $(STAGE) $(RUN_ARGS) $(NOTEBOOKS)

JB_BUILD = $(BIN)/jupyter-book build . --config $(STAGE)/_config.yml --toc _toc.yml --all --path-output $(BOOK_OUT)

# PDF=1: build the whole-book PDF first (make pdf) and offer it from the book's introduction and
# citing page; otherwise those pages say how to make it.
PDF ?=

book: stage
ifneq ($(PDF),)
	$(JB_BUILD) --builder pdflatex
	$(BIN)/python tools/chapters.py offer-pdf $(BOOK_OUT)/_build/latex/gendyn-book.pdf --out $(STAGE)
endif
	$(JB_BUILD) -W --keep-going
	@echo "book ($(SCALE) scale): $(BOOK_OUT)/_build/html/index.html"

# The whole book as one PDF (needs a TeX installation: see the README).
pdf: stage
	$(JB_BUILD) --builder pdflatex
	@echo "PDF ($(SCALE) scale): $(BOOK_OUT)/_build/latex/gendyn-book.pdf"

# The LaTeX sources of the PDF, without TeX: make test checks that they build.
latex: stage
	$(JB_BUILD) --builder latex -W --keep-going

# Opens every page of the built book offline in headless Chromium (Debian's chromium):
# at 1400 and 400 px: typeset math, no equation out of reach, no MathJax or console error, tables
# and images, claims tables within the column, small figures linked to their full size, no page
# wider than the window; screenshots.
browser-check:
	cd tools/browser-check && npm ci --silent --no-audit --no-fund
	node tools/browser-check/check.mjs $(BOOK_OUT)/_build/html _build/screenshots/$(SCALE)

# The library's tests without the chapters (about a minute).
unit: $(STAMP)
	$(BIN)/python -m pytest -m "not notebook"

# pytest runs the unit tests and every chapter at smoke scale (claims checked); nbval then
# re-executes each executed chapter and compares every text output with the first run,
# so a result that is not identical run to run fails; the smoke book checks the book build,
# its HTML is checked as a reader gets it, and the LaTeX sources of the PDF must build.
# Progress bars off: a bar written while a kernel's output is captured lands in the stored
# notebook or not depending on timing (a loaded machine), and nbval would then see a difference.
# Both passes get one explicit torch thread count (GENDYN_THREADS, the cores this process may use): a
# reduction rounds differently on another count (per_mode_stopping_gd differs in the 16th digit between 1 and
# 2 threads), and torch's own default is not guaranteed to be the same in the pipeline's kernels and nbval's
# (a CI run once re-executed two chapters on one thread and failed).
test: export GENDYN_PROGRESS = 0
test: export GENDYN_THREADS ?= $(shell python3 -c 'import os; print(len(os.sched_getaffinity(0)))' 2>/dev/null || echo 1)
test: $(STAMP)
	$(BIN)/python -m pytest
	GENDYN_RUN_DIR=$$(mktemp -d) $(BIN)/python -m pytest --nbval --nbval-current-env -q \
	  $(addprefix _build/runs/smoke/,$(CHAPTERS))
	$(MAKE) book SCALE=smoke
	GENDYN_BOOK_HTML=_build/smoke/_build/html $(BIN)/python -m pytest -q tests/test_built_book.py
	$(MAKE) latex SCALE=smoke

# Can each claim of agreement fail? Every chapter at smoke scale, once as it is and once per theory
# function its module declares (MUTATIONS), with that function's result perturbed; writes the table
# the book's page "How strong are the claims?" shows. MUTANTS_ARGS: e.g. "lg-rmt ln-setup -j 1"; with
# "--merge", only the chapters named are measured again and replaced in the existing table.
mutants: $(STAMP)
	$(BIN)/python tools/mutants.py --json benchmarks/mutants.json --markdown benchmarks/mutants.md $(MUTANTS_ARGS)

# Are the claims calibrated? Every chapter at smoke scale at several seeds with the right theory;
# lists each claim that failed at any of them (at level 1e-3 none should). CALIBRATION_ARGS: e.g.
# "lg-alignment -j 2"; SEEDS: the seeds (about 25 min per seed for the whole book on 2 cores).
SEEDS ?= 1 2 3
calibration: $(STAMP)
	$(BIN)/python tools/calibration.py --seeds $(SEEDS) --json benchmarks/calibration.json \
	  --markdown benchmarks/calibration.md $(CALIBRATION_ARGS)

benchmarks: $(STAMP)
	$(BIN)/python benchmarks/committee_sgd.py
	$(BIN)/python benchmarks/trainers.py
	$(BIN)/python benchmarks/run.py $(BENCH_ARGS)

# Refresh the locks after changing a dependency in pyproject.toml (pip install it into .venv
# first): the versions of .venv's pip freeze, with the hashes of their files for Python 3.11,
# 3.12 and 3.13 (those found here), and environment.yml to match (tools/lock.py).
lock: $(STAMP)
	$(BIN)/python tools/lock.py --freeze $(BIN)/python

clean:
	rm -rf _build $(STAGE)
