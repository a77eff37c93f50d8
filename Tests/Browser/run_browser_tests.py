"""Runs every test_*.py beside this file in a headless Chromium against a running
`sade serve --demo`; exits 0 when all pass.

    python3 run_browser_tests.py --url http://127.0.0.1:8080 [--screenshots DIR] [PATTERN…]
    python3 run_browser_tests.py --url https://127.0.0.1:8443 --ca-file ca.pem --certificate-spki HASH tls_*.py
"""

import argparse
import os
import sys
import time
import unittest

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--url", default=os.environ.get("SADE_URL", "http://127.0.0.1:8080"), help="the server's address")
parser.add_argument("--screenshots", default=os.environ.get("SADE_SCREENSHOTS"), help="where each page's screenshot goes")
parser.add_argument("--ca-file", help="over HTTPS: the PEM file of the CA the API calls trust")
parser.add_argument("--certificate-spki", help="over HTTPS: the base64 SHA-256 of the server certificate's key, which the browser trusts")
parser.add_argument("patterns", nargs="*", default=["test_*.py"], help="which test files to run (tls_*.py: the HTTPS checks)")
arguments = parser.parse_args()
if arguments.ca_file:
    os.environ["SADE_CA_FILE"] = arguments.ca_file
if arguments.certificate_spki:
    os.environ["SADE_CERTIFICATE_SPKI"] = arguments.certificate_spki
os.environ["SADE_URL"] = arguments.url
if arguments.screenshots:
    os.environ["SADE_SCREENSHOTS"] = arguments.screenshots

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
suite = unittest.TestSuite(unittest.defaultTestLoader.discover(here, pattern=pattern) for pattern in arguments.patterns)


class TimedResult(unittest.TextTestResult):
    """Also notes how long each test took, to print the slowest at the end."""

    durations = []

    def startTest(self, test):
        self.started = time.monotonic()
        super().startTest(test)

    def stopTest(self, test):
        super().stopTest(test)
        TimedResult.durations.append((time.monotonic() - self.started, test.id()))


result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout, resultclass=TimedResult).run(suite)
print("slowest:")
for seconds, name in sorted(TimedResult.durations, reverse=True)[:8]:
    print(f"  {seconds:6.1f} s  {name}")
sys.exit(0 if result.wasSuccessful() and result.testsRun > 0 else 1)
