"""The app on a phone: installable, its service worker, offline start, a push shown
on the lock screen with its buttons."""

import json
import time
import uuid

from sade_browser import BASE, DashboardTestCase, css, login, wait


class PhoneAppTests(DashboardTestCase):
    def controlled(self):
        """Waits for the service worker, then reloads so that it controls the page."""
        self.driver.set_script_timeout(60)
        scope = self.driver.execute_async_script(
            "const done = arguments[0]; navigator.serviceWorker.ready.then((r) => done(r.scope), (e) => done('error ' + e));")
        self.assertEqual(scope, BASE + "/")
        self.driver.refresh()
        wait(self.driver, lambda d: d.execute_script("return Boolean(navigator.serviceWorker.controller)"), "the worker controls the page")

    def registration_ids(self):
        """The registration ids Chromium lists for this origin (chrome://serviceworker-internals, in a tab of its own)."""
        page = self.driver.current_window_handle
        self.driver.switch_to.new_window("tab")
        try:
            self.driver.get("chrome://serviceworker-internals")
            wait(self.driver, lambda d: "Registration ID" in d.find_element("css selector", "body").text, "the workers are listed")
            lines = self.driver.find_element("css selector", "body").text.splitlines()
            return [line.split(":", 1)[1].strip() for line in lines if line.startswith("Registration ID:")]
        except Exception:
            return []
        finally:
            self.driver.close()
            self.driver.switch_to.window(page)

    def test_installable_and_opens_offline(self):
        self.use_phone()
        login(self.driver, "nurse1")
        self.controlled()
        errors = self.driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})
        self.assertEqual(errors.get("installabilityErrors"), [], "Chromium finds the app installable")
        manifest = self.driver.execute_cdp_cmd("Page.getAppManifest", {})
        self.assertEqual(manifest.get("errors"), [], manifest)
        parsed = json.loads(manifest["data"])
        self.assertEqual(parsed["display"], "standalone")
        self.assertTrue(css(self.driver, "#push-toggle"), "the top bar offers notifications on this device")
        # Offline: the shell comes from the cache, the API from nowhere, and the app says so.
        self.expected_console = ("Failed to load resource", "ERR_INTERNET_DISCONNECTED", "net::")
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                                    {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        self.driver.get(BASE + "/#/login")
        wait(self.driver, lambda d: css(d, "#offline") and d.find_element("css selector", "#offline").is_displayed(),
             "the offline state shows")
        self.assertIn("Offline — last updated", self.driver.find_element("css selector", "#offline").text)
        cached = self.driver.execute_async_script(
            "const done = arguments[0]; caches.keys().then(async (names) => { const urls = []; "
            "for (const n of names) for (const r of await (await caches.open(n)).keys()) urls.push(new URL(r.url).pathname); done(urls); });")
        self.assertTrue(cached, "the shell is cached")
        self.assertFalse([u for u in cached if u.startswith("/api/") or u.startswith("/Api/")], "no API answer is cached: %s" % cached)

    def test_a_push_shows_a_notification_with_its_buttons(self):
        login(self.driver, "nurse1")
        self.controlled()
        notice = str(uuid.uuid4())
        payload = {"notice": notice, "title": "NEWS2 9 (high)", "body": "Where: COVID ward, bed 3", "severity": "alarm",
                   "tag": "t" * 32, "url": "/#/alerts", "createdAt": "2026-12-07T10:00:00Z",
                   "actions": [{"action": "acknowledge", "title": "Acknowledge", "token": "x.y"}, {"action": "open", "title": "Open"}]}
        self.driver.execute_cdp_cmd("ServiceWorker.enable", {})
        candidates = self.registration_ids() + [str(n) for n in range(0, 8)]  # a fresh profile numbers its registrations from 0
        self.driver.set_script_timeout(60)
        shown = None
        last_push = [0.0]

        def notification(driver):
            """Pushes (again every few seconds: a worker that was starting may miss one) until it shows."""
            nonlocal shown
            if time.monotonic() - last_push[0] > 3:
                last_push[0] = time.monotonic()
                for registration in candidates:
                    try:
                        driver.execute_cdp_cmd("ServiceWorker.deliverPushMessage",
                                               {"origin": BASE, "registrationId": registration, "data": json.dumps(payload)})
                    except Exception:
                        continue
            shown = driver.execute_async_script(
                "const done = arguments[0]; navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((list) => "
                "done(list.map((n) => ({title: n.title, body: n.body, tag: n.tag, actions: n.actions.map((a) => a.action), "
                "data: n.data, requireInteraction: n.requireInteraction}))));")
            return bool(shown)

        wait(self.driver, notification, "the notification shows")
        self.assertEqual(len(shown), 1, "a push again with the same tag replaces the notification")
        self.assertEqual(shown[0]["title"], "NEWS2 9 (high)")
        self.assertEqual(shown[0]["tag"], "t" * 32)
        self.assertEqual(shown[0]["actions"], ["acknowledge", "open"])
        self.assertTrue(shown[0]["requireInteraction"], "an alarm stays until answered")
        self.assertEqual(shown[0]["data"]["notice"], notice)
        self.assertEqual(shown[0]["data"]["actions"][0]["token"], "x.y")
