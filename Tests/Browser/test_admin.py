"""An admin's work on the dashboard: hospitals and sectors, staff and duty, a patient
admitted, given own ranges and a device token, moved and discharged, and the wearable
thesis's projects with their data and who posted it."""

from selenium.webdriver.common.keys import Keys

from sade_browser import (
    BASE, DashboardTestCase, attr, call, choose, click, css, fill, login, no_sideways_scroll, now, press, shot, text, token,
    unique, wait, wearable_user)

COVID_WARD = "covid-ward"


def checked(driver, selector):
    return driver.execute_script("return document.querySelector(arguments[0]).checked", selector)


def toast_says(words):
    return lambda d: words in text(d, "#toasts")


class AdminTests(DashboardTestCase):
    def test_hospitals_and_sectors_are_listed_and_created(self):
        admin = token("admin")
        login(self.driver, "admin")
        self.driver.get(BASE + "/#/admin")
        wait(self.driver, lambda d: css(d, '#hospital-list [data-hospital="demo-hospital"] tr[data-sector="icu"]'), "the demo hospital's sectors show")
        self.assertIn("covid-ward@demo-hospital.example", text(self.driver, 'tr[data-sector="covid-ward"] .mailing-list'))
        self.assertEqual(attr(self.driver, '.subnav a[aria-current="page"]', "href"), "#/admin/hospitals")

        hospital, sector = unique("hospital"), unique("ward")
        fill(self.driver, {'#new-hospital [name="hospital-id"]': hospital, '#new-hospital [name="hospital-name"]': "North Clinic"})
        click(self.driver, "#new-hospital button[type=submit]")
        wait(self.driver, lambda d: css(d, f'[data-hospital="{hospital}"]'), "the new hospital is listed")
        choose(self.driver, '#new-sector [name="sector-hospital"]', hospital)
        fill(self.driver, {'#new-sector [name="sector-id"]': sector, '#new-sector [name="sector-name"]': "Cardiology",
                           '#new-sector [name="sector-mailing-list"]': "cardio@north.example\nlead@north.example"})
        click(self.driver, "#new-sector button[type=submit]")
        row = f'[data-hospital="{hospital}"] tr[data-sector="{sector}"]'
        wait(self.driver, lambda d: css(d, row), "the new sector is listed under its hospital")
        self.assertEqual(text(self.driver, row + " .mailing-list"), "cardio@north.example, lead@north.example")
        status, saved = call("GET", f"/api/v1/sectors/{sector}", token=admin)
        self.assertEqual((status, saved["hospital"], saved["mailingList"]), (200, hospital, ["cardio@north.example", "lead@north.example"]))

        fill(self.driver, {'#new-sector [name="sector-id"]': sector, '#new-sector [name="sector-name"]': "Again"})
        click(self.driver, "#new-sector button[type=submit]")
        wait(self.driver, lambda d: "exists already" in text(d, "#new-sector .form-error"), "a duplicate sector is refused with the server's reason")
        self.expected_console = ("409 (Conflict)",)
        self.driver.execute_script("window.scrollTo(0, 0)")
        shot(self.driver, "admin")

    def test_a_nurse_account_is_created_put_on_duty_and_moved_between_sectors(self):
        admin = token("admin")
        login(self.driver, "admin")
        self.driver.get(BASE + "/#/admin/staff")
        wait(self.driver, lambda d: css(d, '#workers tr[data-worker="nurse1"]'), "the workers are listed")
        self.assertTrue(checked(self.driver, '#workers tr[data-worker="nurse1"] input.duty'), "nurse1 is on duty")
        self.assertTrue(css(self.driver, '#accounts tr[data-user="admin"]'), "the accounts are listed")

        nurse = unique("nurse")
        fill(self.driver, {'[name="staff-username"]': nurse, '[name="staff-name"]': "Nell Browser", '[name="staff-password"]': "long-enough-1",
                           '[name="staff-email"]': f"{nurse}@demo-hospital.example"})
        click(self.driver, f'#new-staff input[value="{COVID_WARD}"]')
        click(self.driver, '#new-staff [name="staff-on-duty"]')
        click(self.driver, "#new-staff button[type=submit]")
        row = f'#workers tr[data-worker="{nurse}"]'
        wait(self.driver, lambda d: css(d, row) and checked(d, row + " input.duty"), "the new nurse is listed, on duty")
        self.assertIn("COVID ward", text(self.driver, row + " .sector-names"))
        self.assertTrue(css(self.driver, f'#accounts tr[data-user="{nurse}"]'), "with her account")
        self.assertEqual(call("POST", "/api/v1/auth/login", {"username": nurse, "password": "long-enough-1"})[0], 200, "she can log in")

        click(self.driver, row + " input.duty")
        wait(self.driver, toast_says("is off duty"), "she goes off duty")
        self.assertFalse(checked(self.driver, row + " input.duty"))
        click(self.driver, row + " button.edit-sectors")
        click(self.driver, row + ' input[value="icu"]')
        click(self.driver, row + f' input[value="{COVID_WARD}"]')
        click(self.driver, row + " .sector-editor button[type=submit]")
        wait(self.driver, lambda d: text(d, row + " .sector-names") == "ICU", "her sectors change")
        status, worker = call("GET", f"/api/v1/staff/{nurse}", token=admin)
        self.assertEqual((status, worker["sectors"], worker["onDuty"], worker["role"]), (200, ["icu"], False, "nurse"))
        self.driver.execute_script("window.scrollTo(0, 0)")
        shot(self.driver, "admin-staff")

    def test_a_patient_is_admitted_given_ranges_and_a_device_token_moved_and_discharged(self):
        admin = token("admin")
        login(self.driver, "admin")
        self.driver.get(BASE + "/#/admin/patients")
        wait(self.driver, lambda d: css(d, '#admin-patients tr[data-patient="patient-01"]'), "the patients are listed")
        patient = unique("admitted")
        fill(self.driver, {'[name="patient-id"]': patient, '[name="patient-name"]': "Ada Browser", '[name="patient-bed"]': "C-42"})
        choose(self.driver, '[name="patient-sector"]', COVID_WARD)
        choose(self.driver, '[name="patient-sex"]', "female")
        click(self.driver, "#admit-submit")
        row = f'#admin-patients tr[data-patient="{patient}"]'
        wait(self.driver, lambda d: css(d, row), "the admitted patient is listed")
        self.assertEqual(text(self.driver, row + " .stay"), "COVID ward · C-42")
        status, detail = call("GET", f"/api/v1/patients/{patient}", token=admin)
        self.assertEqual((status, detail["overview"]["patient"]["sector"], detail["overview"]["patient"]["bed"]), (200, COVID_WARD, "C-42"))
        fill(self.driver, {'[name="patient-search"]': patient.upper()})
        wait(self.driver, lambda d: len(css(d, "#admin-patients tbody tr")) == 1 and css(d, row), "the search finds her alone")
        shot(self.driver, "admin-patients")

        click(self.driver, row + " a.patient-admin-link")
        wait(self.driver, lambda d: css(d, "#thresholds-form") and css(d, "#issue-form"), "her administration page opens")
        self.assertIn("COVID ward", text(self.driver, "#stay-now"))
        fill(self.driver, {'[name="heartRate-lower"]': "45", '[name="heartRate-upper"]': "105"})
        click(self.driver, "#thresholds-submit")
        wait(self.driver, lambda d: text(d, '#thresholds-form tr[data-type="heartRate"] .effective') == "45–105 (own)", "her own heart-rate range is saved")
        status, ranges = call("GET", f"/api/v1/patients/{patient}/thresholds", token=admin)
        self.assertEqual((ranges["overrides"]["heartRate"]["lower"], ranges["overrides"]["heartRate"]["upper"]), (45, 105))
        self.assertEqual(list(ranges["overrides"]), ["heartRate"], "only the range given is her own")

        click(self.driver, '#patient-details [name="onRespirator"]')
        click(self.driver, '#patient-details [name="usesSpO2Scale2"]')
        click(self.driver, "#details-submit")
        wait(self.driver, toast_says("details saved"), "the details are saved")
        status, detail = call("GET", f"/api/v1/patients/{patient}", token=admin)
        self.assertTrue(detail["overview"]["onRespirator"] and detail["overview"]["patient"]["usesSpO2Scale2"])

        fill(self.driver, {'[name="device-label"]': "bedside monitor"})
        click(self.driver, "#issue-token")
        secret = wait(self.driver, lambda d: text(d, "#device-secret"), "the token's secret is shown once")
        wait(self.driver, lambda d: "active" in text(d, "#device-tokens .token-state"), "the token is listed, active")
        observation = {"type": "heartRate", "value": 80, "start": now()}
        self.assertEqual(call("POST", f"/api/v1/patients/{patient}/observations", [observation], secret)[0], 201, "the shown token works")
        shot(self.driver, "admin-patient")
        click(self.driver, "#device-tokens button.revoke")
        click(self.driver, "#device-tokens button.confirm-yes")
        wait(self.driver, lambda d: "revoked" in text(d, "#device-tokens .token-state"), "the token is revoked")
        self.assertFalse(css(self.driver, "#device-secret"), "the secret is not shown again")
        self.assertEqual(call("POST", f"/api/v1/patients/{patient}/observations", [observation], secret)[0], 401, "a revoked token is refused")

        choose(self.driver, '[name="stay-sector"]', "icu")
        fill(self.driver, {'[name="stay-bed"]': "ICU-9"})
        click(self.driver, "#stay-submit")
        wait(self.driver, lambda d: "ICU, bed ICU-9" in text(d, "#stay-now"), "she moves to the ICU")
        click(self.driver, "#discharge")
        click(self.driver, "#patient-stay button.confirm-yes")
        wait(self.driver, lambda d: text(d, "#stay-now") == "Not admitted.", "she is discharged")
        status, detail = call("GET", f"/api/v1/patients/{patient}", token=admin)
        self.assertIsNone(detail["overview"]["patient"].get("sector"))

    def test_projects_are_created_users_assigned_and_their_data_shown_with_who_posted_it(self):
        walker, other = unique("walker"), unique("sitter")
        walker_token = wearable_user(walker, name="Wanda Walker")
        other_token = wearable_user(other, name="Simon Sitter")
        for step in range(3):
            status, _ = call("POST", "/Api/DataItem", {"heartBpm": 70 + step, "gpsCoordinates": f"46.7555{step} 23.5690{step}",
                                                        "steps": 10 * step, "distance": 7 * step, "device": "Apple Watch Series 3"}, walker_token)
            self.assertEqual(status, 201)
        self.assertEqual(call("POST", "/Api/DataItem", {"heartBpm": "64", "temperature": "36.50", "device": "ESP32"}, other_token)[0], 201)

        login(self.driver, "admin")
        self.driver.get(BASE + "/#/admin/projects")
        wait(self.driver, lambda d: css(d, '#projects tr[data-project="0"]'), "the projects are listed, No Project first")
        name = unique("Step study")
        fill(self.driver, {'[name="project-name"]': name, '[name="project-description"]': "Walking after discharge"})
        click(self.driver, "#create-project")
        wait(self.driver, lambda d: name in text(d, "#projects tbody"), "the new project is listed")
        project = self.driver.execute_script(
            "return [...document.querySelectorAll('#projects tbody tr')].find(r => r.textContent.includes(arguments[0])).dataset.project", name)
        choose(self.driver, '[name="assign-project"]', project)
        fill(self.driver, {'[name="assign-username"]': walker})
        click(self.driver, "#assign-user")
        wait(self.driver, toast_says(f"{walker} is now in {name}"), "the user is assigned")
        status, answer = call("POST", "/Api/User/login", {"username": walker, "password": "sade-demo"})
        self.assertEqual(answer["projectId"], int(project), "the server moved the user to the project")
        wait(self.driver, lambda d: text(d, f'#projects tr[data-project="{project}"] .project-members') == "Wanda Walker",
             "the project lists its member")
        shot(self.driver, "admin-projects")

        click(self.driver, f'#projects tr[data-project="{project}"] a.project-data-link')
        wait(self.driver, lambda d: len(css(d, "#project-data tbody tr")) == 3, "the project's three items are listed")
        posted_by = self.driver.execute_script("return [...document.querySelectorAll('#project-data .posted-by')].map(c => c.textContent)")
        self.assertEqual(posted_by, [f"Wanda Walker ({walker})"] * 3, "each item says who posted it; the other user's item is not in this project")
        self.assertIn("3 data items from 1 user", text(self.driver, "#project-summary"))
        self.assertIn("72 bpm", text(self.driver, "#project-data tbody tr"), "the newest first")
        press(self.driver, "#project-data tbody tr button.item-details", Keys.ENTER)
        wait(self.driver, lambda d: d.execute_script("return document.querySelector('dialog').open"), "the item's details open")
        self.assertEqual(text(self.driver, 'dialog dd[data-term="Posted by"]'), "Wanda Walker", "the server names who posted it")
        shot(self.driver, "admin-project-data")
        self.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        wait(self.driver, lambda d: not d.execute_script("return document.querySelector('dialog').open"), "Escape closes the details")
        self.assertIn("item-details", self.driver.switch_to.active_element.get_attribute("class"), "focus returns to the button")

    def test_the_audit_trail_shows_the_chain_intact_the_admins_login_and_a_failed_login_found_by_its_kind(self):
        admin = token("admin")
        status, page = call("GET", "/api/v1/audit?limit=1", token=admin)
        self.assertEqual(status, 200, page)
        before_login = page["entries"][0]["sequence"]
        for _ in range(100):  # more than a page (100 entries) of the admin's own reads
            self.assertEqual(call("GET", "/api/v1/auth/me", token=admin)[0], 200)
        login(self.driver, "admin")
        self.driver.get(BASE + "/#/admin/audit")
        wait(self.driver, lambda d: "The chain is intact" in text(d, "#audit-chain"), "the chain is checked and reported intact")
        self.assertEqual(attr(self.driver, '.subnav a[aria-current="page"]', "href"), "#/admin/audit")
        own = '#audit-entries tr[data-action="login"]'
        wait(self.driver, lambda d: css(d, own), "the admin's login is listed")
        self.assertGreater(int(attr(self.driver, own, "data-sequence")), before_login, "the newest login is the browser's")
        self.assertEqual((text(self.driver, own + " .audit-actor .actor"), text(self.driver, own + " .audit-actor .role")), ("admin", "admin"),
                         "by admin, as an admin")
        self.assertEqual(text(self.driver, own + " .audit-target"), "POST /api/v1/auth/login")
        self.assertEqual(text(self.driver, own + " .audit-status"), "200")
        self.driver.execute_script("window.scrollTo(0, 0)")
        shot(self.driver, "admin-audit")

        sequences = lambda d: d.execute_script(
            "return [...document.querySelectorAll('#audit-entries tbody tr')].map(r => Number(r.dataset.sequence))")
        first_page = sequences(self.driver)
        self.assertEqual(len(first_page), 100, "a page holds 100 entries")
        click(self.driver, "#older-entries")
        wait(self.driver, lambda d: len(sequences(d)) > 100, "Older entries adds the next page below")
        both = sequences(self.driver)
        self.assertEqual(both[:100], first_page, "the first page stays")
        self.assertEqual(both, sorted(set(both), reverse=True), "newest first, none twice")

        intruder = unique("intruder")
        self.assertEqual(call("POST", "/api/v1/auth/login", {"username": intruder, "password": "not-the-password"})[0], 401)
        choose(self.driver, '[name="audit-action"]', "login-failed")
        click(self.driver, "#audit-filter-submit")
        failed = '#audit-entries tbody tr[data-action="login-failed"]'
        wait(self.driver, lambda d: text(d, failed + " .audit-actor .actor") == intruder, "the failed login is listed with the username it tried")
        self.assertEqual(text(self.driver, failed + " .audit-action"), "Failed login")
        self.assertEqual(text(self.driver, failed + " .audit-status"), "401")
        kinds = self.driver.execute_script("return [...document.querySelectorAll('#audit-entries tbody tr')].map(r => r.dataset.action)")
        self.assertEqual(set(kinds), {"login-failed"}, "only failed logins are listed")
        fill(self.driver, {'[name="audit-actor"]': intruder})
        click(self.driver, "#audit-filter-submit")
        wait(self.driver, lambda d: text(d, "#audit-count") == "1 entry.", "the user name narrows the list to the one attempt")
        click(self.driver, '#audit-filter button[type="reset"]')
        wait(self.driver, lambda d: "older ones not shown yet" in text(d, "#audit-count"), "Clear lists every entry again")
        self.assertEqual(self.driver.execute_script("return document.querySelector('[name=\"audit-action\"]').value"), "", "the filter is cleared")

    def test_admin_pages_fit_a_phone(self):
        self.use_phone()
        login(self.driver, "admin")
        for page, ready in (("hospitals", "#hospital-list table"), ("staff", "#workers tbody tr"), ("patients", "#admin-patients tbody tr"),
                            ("patients/patient-01", "#thresholds-form"), ("audit", "#audit-entries tbody tr"),
                            ("projects", "#projects tbody tr")):
            self.driver.get(BASE + f"/#/admin/{page}")
            wait(self.driver, lambda d: css(d, ready), f"admin {page} shows at phone width")
            self.assertTrue(no_sideways_scroll(self.driver), f"admin {page} fits the phone's width")
            if page == "patients":
                self.assertEqual(css(self.driver, "#admin-patients thead")[0].value_of_css_property("display"), "none", "cards at phone width")
                shot(self.driver, "admin-patients-phone")
                press(self.driver, "#jump-to-admit", Keys.ENTER)
                wait(self.driver, lambda d: d.switch_to.active_element.get_attribute("name") == "patient-id", "the admit form is a key press away")
        shot(self.driver, "admin-projects-phone")
