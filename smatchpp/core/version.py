"""smatchpp's version, in a module of its own so that any layer can read it without
importing the package's API (``smatchpp/__init__.py`` imports :mod:`smatchpp.api`).

>>> import smatchpp
>>> __version__ == smatchpp.__version__
True
"""

__version__ = "0.1.0"
