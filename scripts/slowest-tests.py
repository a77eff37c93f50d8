#!/usr/bin/env python3
"""Prints the ten slowest test cases of a run, from the timings the tests record.

Usage: slowest-tests.py FILE   (the file SADE_TEST_TIMINGS named: one line a test case,
"SECONDS<TAB>START<TAB>MODULE.SUITE<TAB>NAME", each timed from when it got its turn to
run, START counted from when the first test case began)
"""
import sys


def main():
    cases = []
    try:
        with open(sys.argv[1], encoding="utf-8", errors="replace") as timings:
            for line in timings:
                fields = line.rstrip("\n").split("\t", 3)
                try:
                    cases.append((float(fields[0]), float(fields[1]), fields[2], fields[3]))
                except (ValueError, IndexError):
                    continue  # a line cut short (the test process died while writing it)
    except OSError as error:
        print(f"slowest-tests: cannot read {sys.argv[1]}: {error}")
        return
    if not cases:
        print("slowest-tests: no test recorded its time")
        return
    cases.sort(reverse=True)
    total = sum(seconds for seconds, _, _, _ in cases)
    print(f"The ten slowest of {len(cases)} test cases ({total:.0f} s in all, several at a time):")
    print("  seconds  from    to  (from and to: s after the first test began)")
    for seconds, start, suite, name in cases[:10]:
        print(f"  {seconds:7.1f} {start:5.0f} {start + seconds:5.0f}  {suite}: {name[:100]}")


if __name__ == "__main__":
    main()
