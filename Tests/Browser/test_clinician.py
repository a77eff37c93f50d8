"""A nurse's day on the dashboard: her sector's patients, a live bedside monitor, a live
alert acknowledged, CSV export, phone width and the keyboard."""

import csv
import datetime
import glob
import os
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from sade_browser import BASE, DashboardTestCase, attr, browser, quit_browser, click, press, call, css, device_token, login, shot, text, token, wait, wait_live

COVID_WARD = "covid-ward"


def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class ClinicianTests(DashboardTestCase):

    def test_nurse_sees_only_her_sectors_patients_sorted_by_risk(self):
        login(self.driver, "nurse1")
        wait(self.driver, lambda d: css(d, "#patients tbody tr"), "the patients list fills")
        status, expected = call("GET", "/api/v1/patients", token=token("nurse1"))
        self.assertEqual(status, 200)
        rows = self.driver.execute_script(
            "return [...document.querySelectorAll('#patients tbody tr')].map(r => [r.dataset.patient, r.dataset.sector])")
        self.assertEqual(sorted(p for p, _ in rows), sorted(o["patient"]["id"] for o in expected))
        self.assertEqual({sector for _, sector in rows}, {COVID_WARD})
        self.assertNotIn("patient-09", [p for p, _ in rows], "ICU patients are not hers")
        scores = self.driver.execute_script(
            "return [...document.querySelectorAll('#patients tbody .news2')].map(b => parseInt(b.textContent) || -1)")
        self.assertEqual(scores, sorted(scores, reverse=True), "the riskiest first")
        first = text(self.driver, "#patients tbody tr td.age")
        wait(self.driver, lambda d: text(d, "#patients tbody tr td.age") != first,
             "the time since the last reading moves on without reloading")
        shot(self.driver, "patients")

    def test_monitor_chart_updates_as_samples_arrive(self):
        admin = token("admin")
        device = device_token("patient-06", admin)
        login(self.driver, "nurse1")
        self.driver.get(BASE + "/#/patients/patient-06")
        chart = '#charts section[data-type="heartRate"] svg'
        wait(self.driver, lambda d: css(d, chart), "the heart-rate chart is drawn")
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text, "Liam O'Brien")
        self.assertTrue(css(self.driver, "#news2 table"), "the NEWS2 breakdown is shown")
        wait_live(self.driver)
        status, answer = call("POST", "/api/v1/patients/patient-06/observations",
                              {"type": "heartRate", "value": 163, "start": now()}, device)
        self.assertEqual(status, 201, answer)
        wait(self.driver, lambda d: text(d, '.vital[data-type="heartRate"] .value') == "163"
             and "out-of-range" in attr(d, '.vital[data-type="heartRate"]', "class"),
             "the large heart-rate value shows the new sample live, marked out of range")
        wait(self.driver, lambda d: float(attr(d, chart, "data-maximum") or 0) >= 163, "the chart is redrawn with the new sample")
        for period in ("24h", "7d"):
            click(self.driver, f'button.period[data-period="{period}"]')
            wait(self.driver, lambda d: css(d, f'button.period[data-period="{period}"][aria-pressed="true"]'), f"{period} is chosen")
            wait(self.driver, lambda d: float(attr(d, chart, "data-maximum") or 0) >= 163, f"the {period} chart has the sample")
        shot(self.driver, "monitor")

        click(self.driver, "#export-csv")
        path = wait(self.driver, lambda d: [f for f in glob.glob(os.path.join(d.downloads, "*.csv"))], "the CSV is downloaded")[0]
        with open(path, newline="") as file:
            rows = list(csv.DictReader(file))
        self.assertEqual(os.path.basename(path), "patient-06-vital-signs-7d.csv")
        self.assertTrue(any(r["type"] == "heartRate" and float(r["value"]) == 163 for r in rows), "the CSV has the sample")
        self.assertEqual({r["patient"] for r in rows}, {"patient-06"})

        cells = self.driver.execute_async_script(
            "const done = arguments[0]; import('/assets/js/pages/monitor.js').then(m => done("
            "[m.csvCell('=SUM(A1)'), m.csvCell('@cmd'), m.csvCell('a,b'), m.csvCell(-3), m.csvCell('say \\\"hi\\\"')]))")
        self.assertEqual(cells, ["'=SUM(A1)", "'@cmd", '"a,b"', "-3", '"say ""hi"""'], "spreadsheet formulas are defused")

        click(self.driver, "#export-fhir")
        bundle = wait(self.driver, lambda d: glob.glob(os.path.join(d.downloads, "*.json")), "the FHIR Bundle is downloaded")[0]
        with open(bundle) as file:
            self.assertIn('"resourceType": "Bundle"', file.read())

    def test_live_alert_is_announced_and_acknowledged(self):
        admin = token("admin")
        patient = f"browser-{uuid.uuid4().hex[:8]}"  # a patient of her own: no earlier episode, no simulated monitor
        status, answer = call("POST", "/api/v1/patients", {"id": patient, "name": "Test Patient", "sector": COVID_WARD, "bed": "T-1"}, admin)
        self.assertEqual(status, 201, answer)
        device = device_token(patient, admin)
        login(self.driver, "nurse1")
        self.driver.get(BASE + "/#/alerts")
        wait(self.driver, lambda d: css(d, "#alert-feed"), "the alert feed shows")
        wait(self.driver, lambda d: d.execute_script("return Notification.permission") == "granted", "notifications are allowed")
        wait_live(self.driver)
        at = now()
        batch = [{"type": "heartRate", "value": 138, "start": at}, {"type": "respiratoryRate", "value": 29, "start": at},
                 {"type": "oxygenSaturation", "value": 86, "start": at}, {"type": "bloodPressureSystolic", "value": 88, "start": at},
                 {"type": "bodyTemperature", "value": 39.6, "start": at}]
        status, answer = call("POST", f"/api/v1/patients/{patient}/observations", batch, device)
        self.assertEqual(status, 201, answer)
        item = f'#alert-feed li[data-patient="{patient}"]'
        wait(self.driver, lambda d: css(d, item), "the alert arrives live, without reloading")
        wait(self.driver, lambda d: css(d, ".toast"), "a toast announces it")
        alert_id = attr(self.driver, item, "data-alert")
        status, alert = call("GET", f"/api/v1/alerts/{alert_id}", token=admin)
        self.assertEqual(status, 200)
        self.assertIn(f"severity-{alert['severity']}", attr(self.driver, item, "class"))
        if alert["severity"] == "alarm":
            wait(self.driver, lambda d: d.execute_script("return document.body.dataset.lastTone"), "the alarm tone plays")
        if alert.get("assignee"):
            self.assertIn(f"assigned to", text(self.driver, item))
        shot(self.driver, "alerts")
        click(self.driver, item + " button.acknowledge")
        wait(self.driver, lambda d: "acknowledged by" in text(d, '#alert-feed') or not css(d, item), "the acknowledgement lands")
        click(self.driver, '#main button[aria-pressed="false"]')  # "All": acknowledged alerts stay listed
        wait(self.driver, lambda d: "acknowledged by" in text(d, item), "the alert shows as acknowledged")
        status, alert = call("GET", f"/api/v1/alerts/{alert_id}", token=admin)
        self.assertEqual(alert["acknowledgedBy"], "nurse1")

    def test_a_rejected_or_expired_token_returns_to_the_login_page(self):
        self.expected_console = ("401 (Unauthorized)",)
        login(self.driver, "nurse1")
        self.driver.execute_script(
            "const s = JSON.parse(sessionStorage.getItem('sade.session')); s.token = 'not-a-token';"
            "sessionStorage.setItem('sade.session', JSON.stringify(s)); location.hash = '#/alerts';")
        wait(self.driver, lambda d: d.current_url.endswith("#/login") and css(d, "#login-form"), "a 401 logs the user out")
        wait(self.driver, lambda d: "session has ended" in text(d, "#toasts"), "and says why")
        login(self.driver, "nurse1")
        self.driver.execute_script(
            "const s = JSON.parse(sessionStorage.getItem('sade.session')); s.expiresAt = new Date(Date.now() - 1000).toISOString();"
            "sessionStorage.setItem('sade.session', JSON.stringify(s)); location.reload();")
        wait(self.driver, lambda d: d.current_url.endswith("#/login") and css(d, "#login-form"), "an expired session is not used")

    def test_the_alarm_tone_is_unlocked_by_the_first_click_or_key(self):
        quit_browser(self.driver)
        self.driver = browser(autoplay=False)  # as a real browser: no sound before a user gesture
        self.driver.get(BASE + "/#/login")
        wait(self.driver, lambda d: css(d, "#login-form"), "the login page shows")
        state = "const done = arguments[0]; import('/assets/js/live.js').then(m => done(m.audioState()))"
        self.assertEqual(self.driver.execute_async_script(state), "unavailable", "no audio before the user does anything")
        login(self.driver, "nurse1")
        wait(self.driver, lambda d: d.execute_async_script(state) == "running", "the first key press or click starts the audio")
        self.driver.get(BASE + "/#/alerts")
        click(self.driver, "#test-tone")
        wait(self.driver, lambda d: d.execute_script("return document.body.dataset.lastTone"), "the tone plays")

    def test_phone_width_and_keyboard(self):
        self.use_phone()
        self.driver.get(BASE + "/#/login")
        wait(self.driver, lambda d: css(d, "#login-form"), "the login page shows")
        active = self.driver.switch_to.active_element
        self.assertEqual(active.get_attribute("name"), "username", "the user name field has focus")
        active.send_keys("nurse2", Keys.TAB)
        self.driver.switch_to.active_element.send_keys("sade-demo", Keys.ENTER)
        rows = wait(self.driver, lambda d: css(d, "#patients tbody tr"), "logged in with the keyboard alone")
        self.assertEqual(css(self.driver, "#patients thead")[0].value_of_css_property("display"), "none", "cards at phone width")
        self.assertLessEqual(self.driver.execute_script("return document.documentElement.scrollWidth"),
                             self.driver.execute_script("return window.innerWidth"), "nothing overflows sideways")
        shot(self.driver, "patients-phone")
        press(self.driver, "#patients tbody tr a.patient-link", Keys.ENTER)
        wait(self.driver, lambda d: css(d, "#charts svg"), "a patient opens from the keyboard")
        shot(self.driver, "monitor-phone")
