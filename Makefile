# The two commands of the README:
#   make book   set up the environment if missing, run every chapter at the papers' scale,
#               build the book into _build/html
#   make test   set up the environment if missing, run the unit tests and every chapter at
#               the smoke scale (claims checked), and build the smoke-scale book
#
# Chapters are executed by papermill into _build/runs/<scale>/ and re-executed whenever
# the notebook or anything under lib/ changes (Make's own dependency check: Jupyter
# Book's cache does not see the library). The book is then built from those outputs
# with execution off, so what is rendered is exactly what ran and was checked.

PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SCALE  ?= paper
SEED   ?= 0
DEVICE ?= cpu

NOTEBOOKS := $(shell find notebooks -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' | sort)
LIBRARY   := $(shell find lib -name '*.py' | sort) pyproject.toml
RUNS      := _build/runs/$(SCALE)
EXECUTED  := $(patsubst notebooks/%,$(RUNS)/%,$(NOTEBOOKS))
BOOK_OUT  := $(if $(filter paper,$(SCALE)),.,_build/$(SCALE))
STAGE     := book/generated

export GENDYN_PROGRESS ?= 1
export PYTHONHASHSEED := 0

.PHONY: env runs book test unit benchmarks lock clean

env: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

# One executed notebook per chapter, with its claims and figures in a folder of the same
# name beside it; a failing cell or claim fails the rule (papermill exits non-zero) and
# leaves no output behind, so the next run executes it again.
$(RUNS)/%.ipynb: notebooks/%.ipynb $(LIBRARY) | $(STAMP)
	@rm -rf $(basename $@) && mkdir -p $(basename $@)
	GENDYN_RUN_DIR=$(abspath $(basename $@)) $(BIN)/python tools/timed.py $(basename $@).seconds -- \
	  $(BIN)/papermill --cwd $(<D) --log-level WARNING \
	  -p SCALE $(SCALE) -p SEED $(SEED) -p DEVICE $(DEVICE) $< $(@D)/.partial-$(@F)
	mv $(@D)/.partial-$(@F) $@

runs: $(EXECUTED)

book: runs
	rm -rf $(STAGE) && mkdir -p $(STAGE)
	cd $(RUNS) && find . -name '*.ipynb' -not -name '.partial-*' -exec cp --parents {} $(abspath $(STAGE)) \;
	$(BIN)/python -m gendyn.claims $(RUNS) $(STAGE)/claims-ledger.md
	$(BIN)/jupyter-book build . --all --path-output $(BOOK_OUT) -W --keep-going
	@echo "book ($(SCALE) scale): $(BOOK_OUT)/_build/html/index.html"

unit: $(STAMP)
	$(BIN)/python -m pytest

# pytest runs the unit tests and every chapter at smoke scale (claims checked); nbval then
# re-executes each executed chapter and compares every text output with the first run,
# so a result that is not identical run to run fails; the smoke book checks the book build.
test: $(STAMP)
	$(BIN)/python -m pytest
	GENDYN_RUN_DIR=$$(mktemp -d) $(BIN)/python -m pytest --nbval --nbval-current-env -q \
	  $(patsubst notebooks/%,_build/runs/smoke/%,$(NOTEBOOKS))
	$(MAKE) book SCALE=smoke

benchmarks: $(STAMP)
	$(BIN)/python benchmarks/committee_sgd.py
	$(BIN)/python benchmarks/run.py $(BENCH_ARGS)

# Refresh the exact pins after changing a dependency in pyproject.toml, and mirror them
# into environment.yml.
lock: $(STAMP)
	{ echo "# Exact pins for the whole stack (pip freeze of a working environment, Python 3.11)."; \
	  echo "# torch is the CPU wheel on local disk: always ==2.13.0, never a range."; \
	  echo "# Regenerate with: make lock"; \
	  $(BIN)/python -m pip freeze --all --exclude-editable | grep -v '^pip==' \
	    | sed 's/^torch==2.13.0+cpu/torch==2.13.0/'; } > requirements.lock
	$(BIN)/python tools/sync_environment.py

clean:
	rm -rf _build $(STAGE)
