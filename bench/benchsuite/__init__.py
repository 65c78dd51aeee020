"""The benchmark suite behind bench/run, by section; bench/suite.py runs it."""
