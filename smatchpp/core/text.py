"""Text from the input, made safe to print on a terminal.

Graph ids, concepts, comments and file names come from the user's files. A
control character among them (``ESC``, ``BEL``, the C1 controls) would be obeyed
by the terminal: ``\\x1b]0;...\\x07`` sets the window title, ``\\x1b[31m`` turns the
rest of the output red, and bidirectional overrides reorder what is shown.
:func:`printable` writes each such character as its Python escape instead, so
it is shown, not obeyed.  Every place that prints input-derived text to a
terminal (warnings, errors, the terminal view of ``explain``) goes through it.

>>> printable("a\\x1b]0;PWNED\\x07")
'a\\\\x1b]0;PWNED\\\\x07'
>>> print(printable("(c / \\x1b[31mcat)"))
(c / \\x1b[31mcat)
>>> printable("tab\\tand\\nnewline kept; caf\\u00e9 and \\u4e2d\\u6587 too")
'tab\\tand\\nnewline kept; café and 中文 too'
>>> printable("\\u202egnp.exe"), printable("\\x9b31m")
('\\\\u202egnp.exe', '\\\\x9b31m')
"""

from __future__ import annotations

import re

__all__ = ["printable"]

#: C0 controls but tab and newline, DEL, C1 controls, and the bidirectional
#: embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069)
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control character written as its escape (tab and newline kept)."""
    return _UNSAFE.sub(_escape, text)
