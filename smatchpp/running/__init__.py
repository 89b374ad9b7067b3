"""Running many pairs: the executor (worker processes, ordered results, interrupts), Dask
(:mod:`~smatchpp.running.distributed`) and metric runs on every backend (:mod:`~smatchpp.running.runs`).
"""
