"""A wearable thesis user on the dashboard: registers through the page, logs in, sees
what their watch and ESP32 posted, deletes an item, and sees their track on the
offline map; at phone width and with the keyboard."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from sade_browser import (
    BASE, PASSWORD, DashboardTestCase, attr, call, click, css, fill, login, no_sideways_scroll, shot, text, unique, wait,
    wearable_user)

# Where the thesis's sample data was recorded (its Figure 4.49), walking north-east.
TRACK = [(46.755555, 23.569070), (46.755900, 23.569500), (46.756300, 23.570100), (46.756800, 23.570400)]


def post_track(token):
    """The watch's reports along TRACK and one ESP32 report (no GPS); their ids."""
    ids = []
    for index, (lat, lon) in enumerate(TRACK):
        status, item = call("POST", "/Api/DataItem", {"heartBpm": 70 + index, "gpsCoordinates": f"{lat} {lon}", "steps": 40 * index,
                                                       "distance": 30 * index, "device": "Apple Watch Series 3"}, token)
        assert status == 201, item
        ids.append(item["id"])
    status, item = call("POST", "/Api/DataItem", {"heartBpm": "66", "temperature": "36.50", "device": "ESP32"}, token)
    assert status == 201, item
    return ids + [item["id"]]


def rows(driver):
    return driver.execute_script("return [...document.querySelectorAll('#my-data tbody tr')].map(r => Number(r.dataset.item))")


class WearableTests(DashboardTestCase):
    def test_register_log_in_see_delete_and_map_my_data(self):
        username = unique("runner")
        self.driver.get(BASE + "/#/login")
        click(self.driver, 'a[href="#/register"]')
        wait(self.driver, lambda d: css(d, "#register-form"), "the register page opens from the login page")
        fill(self.driver, {'[name="username"]': username, '[name="name"]': "Rita Runner", '[name="location"]': "Cluj-Napoca",
                           '[name="password"]': "watch-pass-1", '[name="password-again"]': "watch-pass-1"})
        shot(self.driver, "wearable-register")
        click(self.driver, "#register-submit")
        wait(self.driver, lambda d: d.current_url.endswith("#/my-data") and css(d, "#no-data:not([hidden])"), "registered, logged in, no data yet")
        self.assertEqual(text(self.driver, "#who"), "Rita Runner (patient)")
        self.assertEqual(self.driver.execute_script("return [...document.querySelectorAll('#nav a')].map(a => a.textContent)"),
                         ["My data", "Map", "Post reading"], "a wearable user sees only their own pages")

        click(self.driver, "#logout")
        login(self.driver, username, "watch-pass-1")
        wait(self.driver, lambda d: d.current_url.endswith("#/my-data"), "the login page leads a wearable user to their data")
        status, answer = call("POST", "/Api/User/login", {"username": username, "password": "watch-pass-1"})
        self.assertEqual((status, answer["role"], answer["projectId"]), (200, "User", 0), "the watch logs in with the same account")
        ids = post_track(answer["token"])

        self.driver.refresh()
        wait(self.driver, lambda d: rows(d) == list(reversed(ids)), "my data lists every item, the newest first")
        self.assertIn("ESP32", text(self.driver, f'#my-data tr[data-item="{ids[-1]}"]'))
        self.assertIn("73 bpm", text(self.driver, f'#my-data tr[data-item="{ids[3]}"]'))
        self.assertIn(f"{TRACK[3][0]} {TRACK[3][1]}", text(self.driver, f'#my-data tr[data-item="{ids[3]}"] .gps'))
        self.assertIn("66 bpm", text(self.driver, "#data-summary"), "the latest heart rate at a glance")

        gone = ids[1]
        click(self.driver, f'#my-data tr[data-item="{gone}"] button.delete')
        click(self.driver, f'#my-data tr[data-item="{gone}"] button.confirm-no')
        wait(self.driver, lambda d: css(d, f'#my-data tr[data-item="{gone}"] button.delete'), "Cancel keeps the item")
        click(self.driver, f'#my-data tr[data-item="{gone}"] button.delete')
        click(self.driver, f'#my-data tr[data-item="{gone}"] button.confirm-yes')
        wait(self.driver, lambda d: gone not in rows(d), "the deleted item is gone from the page")
        status, items = call("GET", "/Api/DataItem", token=answer["token"])
        self.assertEqual(sorted(i["id"] for i in items), sorted(i for i in ids if i != gone), "and from the server")
        self.driver.refresh()
        wait(self.driver, lambda d: rows(d) == [i for i in reversed(ids) if i != gone], "and stays gone")
        shot(self.driver, "wearable-data")

        click(self.driver, 'a[href="#/map"].button')
        wait(self.driver, lambda d: css(d, "#map svg circle.point"), "the map draws the points")
        drawn = self.driver.execute_script(
            "return [...document.querySelectorAll('#map circle.point')].map(c => ["
            "Number(c.dataset.item), Number(c.getAttribute('cx')), Number(c.getAttribute('cy')), c.querySelector('title').textContent])")
        kept = [i for i in ids[:4] if i != gone]
        self.assertEqual([d[0] for d in drawn], kept, "each GPS point once, in time order; none for the ESP32 or the deleted item")
        xs, ys = [d[1] for d in drawn], [d[2] for d in drawn]
        self.assertEqual(xs, sorted(xs), "eastwards is to the right")
        self.assertEqual(ys, sorted(ys, reverse=True), "northwards is up")
        self.assertTrue(all(":" in d[3] and "46.75" in d[3] for d in drawn), "each point's tooltip gives its time and position")
        self.assertIn("Start", drawn[0][3])
        self.assertIn("Latest", drawn[-1][3])
        self.assertEqual(len(attr(self.driver, "#map polyline.track", "points").split()), len(kept), "the track joins the points")
        self.assertTrue(css(self.driver, "#map text.lat-label") and css(self.driver, "#map text.lon-label"), "the grid has latitude and longitude labels")
        self.assertFalse(self.driver.execute_script(
            "return [...document.querySelectorAll('img, image, iframe')].some(e => e.src || e.href)"), "no map tiles")
        self.assertIn(f"{len(kept)} positions", text(self.driver, "#map-note"))
        shot(self.driver, "wearable-map")

    def test_a_taken_user_name_is_refused_with_the_reason(self):
        self.expected_console = ("409 (Conflict)",)
        username = unique("taken")
        wearable_user(username)
        self.driver.get(BASE + "/#/register")
        fill(self.driver, {'[name="username"]': username, '[name="password"]': "another-pass", '[name="password-again"]': "another-pass"})
        click(self.driver, "#register-submit")
        wait(self.driver, lambda d: "taken" in text(d, "#register-form .form-error"), "the server's reason is shown")
        self.assertTrue(self.driver.current_url.endswith("#/register"), "nobody is logged in")

    def test_differing_passwords_are_caught_before_sending(self):
        self.driver.get(BASE + "/#/register")
        username = unique("typo")
        fill(self.driver, {'[name="username"]': username, '[name="password"]': "watch-pass-1", '[name="password-again"]': "watch-pass-2"})
        click(self.driver, "#register-submit")
        wait(self.driver, lambda d: d.execute_script("return document.querySelector('[name=\"password-again\"]').validationMessage"),
             "the second password is flagged")
        self.assertEqual(call("POST", "/Api/User/login", {"username": username, "password": "watch-pass-1"})[0], 400, "nothing was registered")

    def test_phone_width_and_keyboard(self):
        self.use_phone()
        username = unique("phone")
        self.driver.get(BASE + "/#/register")
        wait(self.driver, lambda d: css(d, "#register-form"), "the register page shows")
        active = self.driver.switch_to.active_element
        self.assertEqual(active.get_attribute("name"), "username", "the user name field has focus")
        active.send_keys(username, Keys.TAB, "Pat Phone", Keys.TAB, Keys.TAB, "watch-pass-1", Keys.TAB, "watch-pass-1", Keys.ENTER)
        wait(self.driver, lambda d: d.current_url.endswith("#/my-data") and css(d, "#no-data:not([hidden])"), "registered with the keyboard alone")
        status, answer = call("POST", "/Api/User/login", {"username": username, "password": "watch-pass-1"})
        post_track(answer["token"])
        self.driver.refresh()
        wait(self.driver, lambda d: len(rows(d)) == len(TRACK) + 1, "the items show")
        self.assertEqual(css(self.driver, "#my-data thead")[0].value_of_css_property("display"), "none", "cards at phone width")
        self.assertTrue(no_sideways_scroll(self.driver), "my data fits the phone's width")
        shot(self.driver, "wearable-data-phone")
        self.driver.get(BASE + "/#/map")
        wait(self.driver, lambda d: len(css(d, "#map circle.point")) == len(TRACK), "the map draws at phone width")
        self.assertTrue(no_sideways_scroll(self.driver), "the map fits the phone's width")
        self.assertEqual(attr(self.driver, "#map svg", "viewBox").split()[2], "430", "a drawing proportioned for the phone")
        shot(self.driver, "wearable-map-phone")

    def test_post_a_reading_from_the_phone(self):
        """The iPhone companion's page: a heart rate typed in, steps and temperature if wished."""
        self.use_phone()
        username = unique("companion")
        token = wearable_user(username, "watch-pass-1", name="Cara Companion")
        login(self.driver, username, "watch-pass-1")
        wait(self.driver, lambda d: css(d, 'nav a[href="#/post-reading"]'), "the page is in the menu")
        self.driver.get(BASE + "/#/post-reading")
        wait(self.driver, lambda d: css(d, "#post-reading-form"), "the page shows")
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("name"), "heart-rate", "the heart rate has focus")
        click(self.driver, "#post-reading-submit")
        self.assertFalse(call("GET", "/Api/DataItem", token=token)[1], "an empty heart rate is caught before sending")
        fill(self.driver, {'[name="heart-rate"]': "72", '[name="steps"]': "1200", '[name="temperature"]': "36.6"})
        click(self.driver, "#post-reading-submit")
        wait(self.driver, lambda d: "Sent: 72 bpm" in text(d, "#toasts"), "it is sent")
        fill(self.driver, {'[name="heart-rate"]': "88"})
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait(self.driver, lambda d: len(call("GET", "/Api/DataItem", token=token)[1]) == 2, "the second, with the keyboard")
        items = call("GET", "/Api/DataItem", token=token)[1]
        self.assertEqual([(i["heartBpm"], i["steps"], i["temperature"], i["device"]) for i in items],
                         [(72, 1200, 36.6, "Phone (web)"), (88, 0, 0, "Phone (web)")])
        self.assertTrue(no_sideways_scroll(self.driver), "the page fits the phone's width")
        shot(self.driver, "wearable-post-phone")
