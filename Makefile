# tirkit: `make demo` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-test

.PHONY: demo test bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) pyproject.toml stubs/pyproject.toml $(shell find stubs/tvm-stubs -type f 2>/dev/null)
	$(PY) -m pip install --quiet -e '.[test]'
	$(PY) -m pip install --quiet ./stubs
	touch $(STAMP)

demo: $(STAMP)
	$(PY) examples/demo.py

test: $(STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) bench/run.py
	$(PY) bench/bench_lsp.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
