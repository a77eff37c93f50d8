"""A nurse's day on the dashboard: her sector's patients, a live bedside monitor, a live
alert acknowledged, CSV export, phone width and the keyboard."""

import csv
import datetime
import glob
import os
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from sade_browser import BASE, browser, call, console_errors, css, device_token, login, shot, token, wait

COVID_WARD = "covid-ward"


def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class ClinicianTests(unittest.TestCase):
    def setUp(self):
        self.driver = browser()

    def tearDown(self):
        errors = console_errors(self.driver)
        self.driver.quit()
        self.assertEqual(errors, [], "the browser console shows no errors")

    def test_nurse_sees_only_her_sectors_patients_sorted_by_risk(self):
        login(self.driver, "nurse1")
        rows = wait(self.driver, lambda d: css(d, "#patients tbody tr"), "the patients list fills")
        status, expected = call("GET", "/api/v1/patients", token=token("nurse1"))
        self.assertEqual(status, 200)
        self.assertEqual(len(rows), len(expected))
        self.assertEqual({row.get_attribute("data-sector") for row in rows}, {COVID_WARD})
        self.assertNotIn("patient-09", [row.get_attribute("data-patient") for row in rows], "ICU patients are not hers")
        scores = [int(b.text.split()[0]) if b.text.split()[0].isdigit() else -1 for b in css(self.driver, "#patients tbody .news2")]
        self.assertEqual(scores, sorted(scores, reverse=True), "the riskiest first")
        first = rows[0].find_element(By.CSS_SELECTOR, "td.age").text
        wait(self.driver, lambda d: css(d, "#patients tbody tr")[0].find_element(By.CSS_SELECTOR, "td.age").text != first,
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
        status, answer = call("POST", "/api/v1/patients/patient-06/observations",
                              {"type": "heartRate", "value": 163, "start": now()}, device)
        self.assertEqual(status, 201, answer)
        wait(self.driver, lambda d: css(d, '.vital[data-type="heartRate"] .value')[0].text == "163",
             "the large heart-rate value shows the new sample live")
        wait(self.driver, lambda d: float(css(d, chart)[0].get_attribute("data-maximum") or 0) >= 163,
             "the chart is redrawn with the new sample")
        self.assertIn("out-of-range", css(self.driver, '.vital[data-type="heartRate"]')[0].get_attribute("class"))
        for period in ("24h", "7d"):
            css(self.driver, f'button.period[data-period="{period}"]')[0].click()
            wait(self.driver, lambda d: css(d, f'button.period[data-period="{period}"][aria-pressed="true"]'), f"{period} is chosen")
            wait(self.driver, lambda d: float(css(d, chart)[0].get_attribute("data-maximum") or 0) >= 163, f"the {period} chart has the sample")
        shot(self.driver, "monitor")

        css(self.driver, "#export-csv")[0].click()
        path = wait(self.driver, lambda d: [f for f in glob.glob(os.path.join(d.downloads, "*.csv"))], "the CSV is downloaded")[0]
        with open(path, newline="") as file:
            rows = list(csv.DictReader(file))
        self.assertEqual(os.path.basename(path), "patient-06-vital-signs-7d.csv")
        self.assertTrue(any(r["type"] == "heartRate" and float(r["value"]) == 163 for r in rows), "the CSV has the sample")
        self.assertEqual({r["patient"] for r in rows}, {"patient-06"})

        css(self.driver, "#export-fhir")[0].click()
        bundle = wait(self.driver, lambda d: glob.glob(os.path.join(d.downloads, "*.json")), "the FHIR Bundle is downloaded")[0]
        with open(bundle) as file:
            self.assertIn('"resourceType": "Bundle"', file.read())

    def test_live_alert_is_announced_and_acknowledged(self):
        admin = token("admin")
        device = device_token("patient-07", admin)
        login(self.driver, "nurse1")
        self.driver.get(BASE + "/#/alerts")
        wait(self.driver, lambda d: css(d, "#alert-feed"), "the alert feed shows")
        wait(self.driver, lambda d: d.execute_script("return Notification.permission") == "granted", "notifications are allowed")
        at = now()
        batch = [{"type": "heartRate", "value": 138, "start": at}, {"type": "respiratoryRate", "value": 29, "start": at},
                 {"type": "oxygenSaturation", "value": 86, "start": at}, {"type": "bloodPressureSystolic", "value": 88, "start": at},
                 {"type": "bodyTemperature", "value": 39.6, "start": at}]
        status, answer = call("POST", "/api/v1/patients/patient-07/observations", batch, device)
        self.assertEqual(status, 201, answer)
        item = '#alert-feed li[data-patient="patient-07"]'
        wait(self.driver, lambda d: css(d, item), "the alert arrives live, without reloading")
        wait(self.driver, lambda d: css(d, ".toast"), "a toast announces it")
        alert_id = css(self.driver, item)[0].get_attribute("data-alert")
        status, alert = call("GET", f"/api/v1/alerts/{alert_id}", token=admin)
        self.assertEqual(status, 200)
        self.assertIn(f"severity-{alert['severity']}", css(self.driver, item)[0].get_attribute("class"))
        if alert["severity"] == "alarm":
            wait(self.driver, lambda d: d.execute_script("return document.body.dataset.lastTone"), "the alarm tone plays")
        if alert.get("assignee"):
            self.assertIn(f"assigned to", css(self.driver, item)[0].text)
        shot(self.driver, "alerts")
        css(self.driver, item + " button.acknowledge")[0].click()
        css(self.driver, 'button[aria-pressed]')[1].click()  # "All": acknowledged alerts stay listed
        wait(self.driver, lambda d: "acknowledged by" in css(d, item)[0].text, "the alert shows as acknowledged")
        status, alert = call("GET", f"/api/v1/alerts/{alert_id}", token=admin)
        self.assertEqual(alert["acknowledgedBy"], "nurse1")

    def test_phone_width_and_keyboard(self):
        self.driver.quit()
        self.driver = browser(390, 844)
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
        link = rows[0].find_element(By.CSS_SELECTOR, "a.patient-link")
        link.send_keys(Keys.ENTER)
        wait(self.driver, lambda d: css(d, "#charts svg"), "a patient opens from the keyboard")
        shot(self.driver, "monitor-phone")
