"""Counts too big to print: the number of layouts of a big board has thousands of digits.

Python refuses ``str()`` of an integer past 4,300 digits (and it would be slow and unreadable anyway), so every
place that shows a count (the CLI's text and JSON, logs, studies, the web API) goes through these two functions:

- :func:`count_text` gives the exact digits up to :data:`EXACT_DIGITS` digits, else scientific notation with
  five significant digits (``1.2345e+4512``), computed without ever converting the whole integer to text;
- :func:`count_json` gives the JSON value: a decimal string (all digits) up to :data:`EXACT_DIGITS` digits, else
  the same scientific string. Both are strings, so a JSON reader tells them apart by an ``e`` in the text
  (``float(text)`` reads either when the exponent is below 308; :func:`parse_count` reads both exactly enough).
"""

from __future__ import annotations

import math

#: Counts with at most this many digits are written out in full.
EXACT_DIGITS = 30
_LIMIT = 10**EXACT_DIGITS
#: Significant digits of the scientific form.
SIGNIFICANT = 5


def scientific(count: int, digits: int = SIGNIFICANT) -> str:
    """``count`` (a non-negative int of any size) as ``M.MMMMe+E`` with ``digits`` significant digits.

    Only the top 64 bits are converted, so it takes microseconds even for a count of a million digits.

    >>> scientific(123456789)
    '1.2346e+08'
    >>> scientific(2**20000)
    '3.9803e+6020'
    """
    if count < 0:
        return "-" + scientific(-count, digits)
    if count == 0:
        return f"{0:.{digits - 1}e}"
    shift = max(0, count.bit_length() - 64)
    top = count >> shift  # count ~= top * 2**shift, top < 2**64 (relative error below 2**-63)
    log = math.log10(top) + shift * math.log10(2)
    exponent = math.floor(log)
    mantissa = 10 ** (log - exponent)
    rounded = round(mantissa, digits - 1)
    if rounded >= 10:  # 9.99999... rounds up to the next power of ten
        rounded, exponent = rounded / 10, exponent + 1
    return f"{rounded:.{digits - 1}f}e{'+' if exponent >= 0 else '-'}{abs(exponent):02d}"


def count_text(count: int, grouped: bool = False) -> str:
    """A count for people: every digit up to :data:`EXACT_DIGITS` digits (in groups of three with ``grouped``),
    else ``1.2345e+4512``.

    >>> count_text(961), count_text(1820, grouped=True), count_text(10**40 + 1)
    ('961', '1,820', '1.0000e+40')
    """
    count = int(count)
    if abs(count) >= _LIMIT:
        return scientific(count)
    return f"{count:,}" if grouped else str(count)


def count_json(count: int) -> str:
    """A count for JSON: a decimal string of every digit up to :data:`EXACT_DIGITS` digits, else the scientific
    string of :func:`count_text` (``"1.2345e+4512"``). Read it back with :func:`parse_count`."""
    return count_text(count)


def parse_count(text: str) -> int:
    """The count a :func:`count_json` string stands for (exact for a decimal string, five significant digits for
    a scientific one).

    >>> parse_count("961"), parse_count("1.5e+40") == 15 * 10**39
    (961, True)
    """
    if "e" not in text:
        return int(text)
    mantissa, exponent = text.split("e")
    whole, _, fraction = mantissa.partition(".")
    digits = int(whole + fraction)
    return digits * 10 ** (int(exponent) - len(fraction)) if int(exponent) >= len(fraction) else round(float(text))
