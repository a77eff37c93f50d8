"""The dashboard over HTTPS (`sade serve --tls-cert … --tls-key …`): run with the
pattern tls_*.py against an https:// URL. The page, the API calls, the live stream
and the monitor's updates all go over TLS, with no mixed content (the console must
stay free of errors)."""

import datetime
import urllib.request

import test_clinician
from sade_browser import BASE, TLS_CONTEXT, DashboardTestCase, attr, call, css, device_token, login, text, token, wait


def wait_until_the_server_caught_up():
    """A fresh `sade serve --demo` first evaluates the 24 hours of history it seeded; a
    sample posted meanwhile reaches the live stream together with the monitors' later
    ones. Posts a probe and reads the live stream (over TLS) until it comes."""
    admin = token("admin")
    device = device_token("patient-06", admin)
    request = urllib.request.Request(BASE + "/api/v1/events", headers={"Authorization": "Bearer " + admin})
    with urllib.request.urlopen(request, timeout=120, context=TLS_CONTEXT) as stream:
        status, answer = call("POST", "/api/v1/patients/patient-06/observations",
                              {"type": "bodyTemperature", "value": 36.6, "start": test_clinician.now()}, device)
        assert status == 201, answer
        probe = answer["ids"][0].lower().encode()
        for line in stream:
            if probe in line.lower():
                return
    raise AssertionError("the probe never reached the live stream")


class DashboardOverTLS(DashboardTestCase):

    def test_a_nurse_works_over_https_with_live_updates(self):
        self.assertTrue(BASE.startswith("https://"), f"run against the HTTPS server, not {BASE}")
        wait_until_the_server_caught_up()
        device = device_token("patient-06", token("admin"))
        login(self.driver, "nurse1")
        self.assertEqual(self.driver.execute_script("return location.protocol"), "https:")
        self.driver.get(BASE + "/#/patients/patient-06")
        wait(self.driver, lambda d: css(d, '#charts section[data-type="heartRate"] svg'), "the heart-rate chart is drawn over HTTPS")
        # Stamped a minute ahead (devices may be 5 minutes off): the demo monitor's readings,
        # which keep coming, do not replace it as the latest before the page shows it.
        ahead = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=60)).isoformat(timespec="milliseconds")
        status, answer = call("POST", "/api/v1/patients/patient-06/observations",
                              {"type": "heartRate", "value": 163, "start": ahead.replace("+00:00", "Z")}, device)
        self.assertEqual(status, 201, answer)
        wait(self.driver, lambda d: text(d, '.vital[data-type="heartRate"] .value') == "163"
             and "out-of-range" in attr(d, '.vital[data-type="heartRate"]', "class"),
             "the sample posted over HTTPS reaches the page through the live stream")
