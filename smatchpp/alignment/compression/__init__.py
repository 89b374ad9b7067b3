"""Search-space compression that never changes the optimum (see :mod:`.exact`)."""
