import re
import sys
import time

import pytest

from sweeplab.core.numbers import EXACT_DIGITS, count_json, count_text, parse_count, scientific


def exact_digits(n: int) -> str:
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return str(n)
    finally:
        sys.set_int_max_str_digits(old)


def test_short_counts_keep_every_digit():
    assert count_text(0) == "0" and count_text(961) == "961"
    assert count_text(10**EXACT_DIGITS - 1) == "9" * EXACT_DIGITS
    assert count_text(1820, grouped=True) == "1,820"
    assert count_json(10**EXACT_DIGITS - 1) == "9" * EXACT_DIGITS


HUGE = [10**EXACT_DIGITS, 2**20000, 3**9999 + 7, 10**5000 - 1, 999995 * 10**60, 12345 * 10**4400]


@pytest.mark.parametrize("n", HUGE, ids=[f"{n.bit_length()}-bits" for n in HUGE])
def test_huge_counts_in_scientific_notation_match_their_digits(n):
    digits = exact_digits(n)
    text = count_text(n)
    mantissa, exponent = text.split("e")
    assert int(exponent) in (len(digits) - 1, len(digits))  # len(digits) when 9.99995... rounds up to 10
    expected = round(int(digits[:7]) / 10**6, 4)
    if expected >= 10:
        expected /= 10
    assert float(mantissa) == pytest.approx(expected, abs=1e-4)
    assert count_json(n) == text


def test_a_count_past_python_s_digit_limit_is_written_fast():
    n = 7**200_000  # about 169,000 digits: str() refuses it
    with pytest.raises(ValueError):
        str(n)
    start = time.perf_counter()
    assert re.fullmatch(r"[1-9]\.\d{4}e\+169\d{3}", count_text(n)), count_text(n)
    assert time.perf_counter() - start < 0.05


def test_scientific_rounds_up_past_a_power_of_ten():
    assert scientific(99999 * 10**50) == "9.9999e+54"
    assert scientific(999995 * 10**60) == "1.0000e+66"
    assert scientific(123456789) == "1.2346e+08"


def test_parse_count_reads_both_forms():
    assert parse_count("961") == 961
    assert parse_count(count_json(10**40)) == 10**40
    big = 2**20000
    assert abs(parse_count(count_json(big)) - big) < big // 10**4
