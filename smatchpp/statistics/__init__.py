"""Statistics over per-item sufficient statistics: bootstrap intervals and paired tests
(:mod:`smatchpp.statistics.significance`). It imports nothing of smatchpp.
"""
