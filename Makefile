# tirkit: `make demo` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-test

.PHONY: demo test bench bench-tune gpu-check fuzz clean

$(PY):
	@echo "tirkit: [1/3] creating $(VENV) with $(PYTHON)"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) pyproject.toml stubs/pyproject.toml $(shell find stubs/tvm-stubs -type f 2>/dev/null)
	@echo "tirkit: [2/3] installing tirkit (editable) and its test tools into $(VENV):" \
	      "about a minute the first time; pip lists each package as it goes"
	$(PY) -m pip install --progress-bar off -e '.[test]'
	$(PY) -m pip install --quiet ./stubs
	touch $(STAMP)
	@echo "tirkit: [2/3] installed"

demo: $(STAMP)
	@echo "tirkit: [3/3] running examples/demo.py (parses, schedules, compiles and times the example kernels)"
	$(PY) examples/demo.py

test: $(STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) bench/run.py
	$(PY) bench/bench_lsp.py
	$(PY) bench/charts.py
	$(PY) bench/compare.py  # side by side with TVM when TIRKIT_BENCH_TVM names its Python

# on a machine with an NVIDIA GPU: the GPU examples against NumPy, the tiled matmul next to
# CuPy/PyTorch, and tests/gpu with the GPU tests run (bench/gpu_check.py)
gpu-check: $(STAMP)
	$(PY) bench/gpu_check.py

bench-tune: $(STAMP)
	$(PY) bench/bench_tune.py --trials 200

# the mutation fuzzer of issue 15 over the real units of tests/ and examples/: counts uncaught
# exceptions, segfaults and inputs over 2 s; reproducers go to fuzz-failures/ (UNITS=... to change)
UNITS ?= 100000
fuzz: $(STAMP)
	$(PY) tests/fuzz/fuzzer.py --units $(UNITS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
