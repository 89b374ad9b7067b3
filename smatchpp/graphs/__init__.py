"""Graphs as read and as triples: the reader with located errors (:mod:`~smatchpp.graphs.read`),
the triple graph (:mod:`~smatchpp.graphs.triples`) and the pairing of two files' graphs
(:mod:`~smatchpp.graphs.pairing`).
"""
