"""Relatives (SADE4Health's improvement #2, H.O.M.E.R.'s carers) on the dashboard of the
demo: Emma, Joseph Brown's daughter, sees his flat (its tile, floor plan and messages,
read only) and him among her people; Lucy, John Carter's wife, sees his latest vital
signs and alerts, without the history charts or exports; neither sees anything else,
in the pages or through the API."""

from sade_browser import DashboardTestCase, call, css, device_token, login, no_sideways_scroll, now, shot, text, token, wait


class RelativeTests(DashboardTestCase):
    def test_daughter_sees_her_fathers_flat_read_only(self):
        driver = self.driver
        login(driver, "emma")
        wait(driver, lambda d: css(d, '#nav a[href="#/homes"]'), "the relative's navigation")
        links = [a.get_attribute("href").split("#", 1)[1] for a in css(driver, "#nav a[href^='#/']")]
        self.assertEqual(sorted(links), ["/alerts", "/homes", "/patients"], "Patients, Alerts and Homes only")

        wait(driver, lambda d: "Joseph Brown" in text(d, "main"), "her father is among her people")
        self.assertNotIn("Maria Silva", text(driver, "main"), "nobody else's patients")

        driver.get(driver.current_url.split("#")[0] + "#/homes")
        wait(driver, lambda d: css(d, "#flats .flat-name"), "the flats' tiles")
        self.assertIn("Joseph's flat", text(driver, "main"))
        self.assertNotIn("Ana's flat", text(driver, "main"), "only her father's flat")

        status, flats = call("GET", "/api/v1/homes", token=token("emma"))
        self.assertEqual((status, [f["name"] for f in flats]), (200, ["Joseph's flat"]))
        flat = flats[0]["id"]
        driver.get(driver.current_url.split("#")[0] + f"#/homes/{flat}")
        wait(driver, lambda d: css(d, "#plan-frame svg"), "the floor plan is drawn")
        self.assertEqual([a.get_attribute("data-tab") for a in css(driver, ".subnav a")], ["plan", "messages"],
                         "the floor plan and the messages: no devices, energy, batteries or activity history")
        self.assertFalse(driver.find_element("css selector", "#energy-balance").is_displayed())
        driver.get(driver.current_url.split("#")[0] + f"#/homes/{flat}/messages")
        wait(driver, lambda d: css(d, "#home-messages"), "the messages tab")

        # Smoke in his kitchen: the alarm reaches her live, and her as a recipient, but she has no Confirm.
        plan = call("GET", f"/api/v1/homes/{flat}", token=token("admin"))[1]
        smoke = next(d for d in plan["devices"] if d["name"] == "Kitchen smoke")
        gateway = device_token("resident-02", token("admin"))
        for value in (0, 1):
            status, answer = call("POST", f"/api/v1/homes/{flat}/events", {"events": [{"device_id": smoke["id"], "value": value, "time": now()}]}, gateway)
            self.assertEqual(status, 201, answer)
        alarm = '#home-messages li[data-class="alarm"][data-state="open"][data-key="hazard:%d"]' % smoke["id"]
        wait(driver, lambda d: css(d, alarm), "the smoke alarm arrives live")
        self.assertEqual(css(driver, "button.confirm-message"), [], "a relative only looks: no Confirm")
        message = driver.find_element("css selector", alarm).get_attribute("data-message")
        status, detail = call("GET", f"/api/v1/homes/{flat}/messages/{message}", token=token("emma"))
        self.assertEqual(status, 200, detail)
        self.assertIn("user:emma", detail["escalation"]["steps"][0]["recipients"], "the flat's alarm goes to her as to its carers")
        status, _ = call("POST", f"/api/v1/homes/{flat}/messages/{message}/confirm", token=token("emma"))
        self.assertEqual(status, 403)
        status, _ = call("POST", f"/api/v1/homes/{flat}/messages/{message}/confirm", token=token("nurse1"))
        self.assertEqual(status, 200, "a carer confirms it")
        call("POST", f"/api/v1/homes/{flat}/events", {"events": [{"device_id": smoke["id"], "value": 0, "time": now()}]}, gateway)
        self.assertTrue(no_sideways_scroll(driver))
        shot(driver, "relative-home")

        # The API refuses what the pages do not offer.
        admin = token("admin")
        status, messages = call("GET", f"/api/v1/homes/{flat}/messages?state=all", token=token("emma"))
        self.assertEqual(status, 200, messages)
        status, _ = call("GET", "/api/v1/patients/resident-01", token=token("emma"))
        self.assertEqual(status, 403, "Ana is not hers")
        status, _ = call("GET", "/api/v1/issues", token=token("emma"))
        self.assertEqual(status, 403)
        status, users = call("GET", "/api/v1/users", token=admin)
        emma = next(u for u in users if u["username"] == "emma")
        self.assertEqual((emma["role"], emma["relativeOf"]), ("relative", ["resident-02"]))

    def test_wife_sees_latest_vital_signs_and_alerts_only(self):
        driver = self.driver
        login(driver, "lucy")
        wait(driver, lambda d: "John Carter" in text(d, "main"), "her husband is listed")
        driver.get(driver.current_url.split("#")[0] + "#/patients/patient-02")
        wait(driver, lambda d: css(d, "#live-values .vital") and css(d, "#patient-alerts"), "his latest vital signs and alerts")
        self.assertEqual(css(driver, "#export-csv") + css(driver, "#export-fhir"), [], "no exports")
        self.assertEqual(css(driver, "#charts section"), [], "no history charts")
        shot(driver, "relative-patient")
        status, _ = call("GET", "/api/v1/patients/patient-02/observations", token=token("lucy"))
        self.assertEqual(status, 403, "no history through the API either")
        status, _ = call("GET", "/api/v1/patients/patient-01", token=token("lucy"))
        self.assertEqual(status, 403)
        driver.get(driver.current_url.split("#")[0] + "#/alerts")
        wait(driver, lambda d: css(d, "#alert-feed"), "the alerts page")
        self.assertEqual(css(driver, "button.acknowledge"), [], "a relative does not acknowledge")
