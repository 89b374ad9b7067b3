"""The alignment family: a graph pair compiled into an integer program and solved exactly.

``problem`` (the compiled program) <- ``jit`` (compiled kernels) <- ``matching``, ``sentences``,
``matchers/`` (who may match whom, at what weight) <- ``compile`` <- ``compression/`` (never
changes the optimum) <- ``solvers/`` (HiGHS, CBC, bounds, branch and bound, hill-climber) <-
``config`` (the settings of a run, composed) <- ``score`` (pair and corpus scores) <- ``aligner``.
"""
