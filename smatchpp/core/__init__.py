"""The foundation every layer stands on: errors, the version, settings and their signature,
the run policy, plugins (entry points), tables, small text and path helpers.

It imports nothing of smatchpp outside this folder except :mod:`smatchpp.statistics`.
"""
