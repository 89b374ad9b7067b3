"""Reports of scores: text, JSON, TSV, LaTeX and HTML (:mod:`~smatchpp.reporting.present`).
"""
