"""The home pages against the demo's two flats (Ana's: nurse1 and nurse2; Joseph's:
nurse1 and nurse3), each with 30 days of sensor history and a simulated gateway that
carries out actuator commands: a carer's flats, the live floor plan, an actuator round
trip, a live alarm confirmed (its escalation checked on the server), the charts, an
admin's new flat, phone width and the keyboard."""

import datetime
import json
import time
import warnings

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from websockets.sync.client import connect

from sade_browser import (
    BASE, DashboardTestCase, attr, call, click, css, device_token, login, no_sideways_scroll, now, shot, text, token, unique, wait)

warnings.filterwarnings("ignore", category=DeprecationWarning)


def flats(user):
    status, answer = call("GET", "/api/v1/homes", token=token(user))
    assert status == 200, answer
    return answer


def flat_of(resident):
    """The demo flat of `resident`, with its floor plan."""
    summary = next(f for f in flats("admin") if f.get("resident") == resident)
    status, flat = call("GET", f"/api/v1/homes/{summary['id']}", token=token("admin"))
    assert status == 200, flat
    return flat


def device(flat, name):
    return next(d for d in flat["devices"] if d["name"] == name)


def room(flat, name):
    return next(r for r in flat["rooms"] if r["name"] == name)


def post_events(flat, events):
    """Posts events as the flat's gateway (a device token of its resident)."""
    gateway = device_token(flat["resident"], token("admin"))
    status, answer = call("POST", f"/api/v1/homes/{flat['id']}/events", {"events": events}, gateway)
    assert status == 201, answer


def bus_states(user, flat_id):
    """The flat's device states as the server has them, over the home event bus."""
    socket = connect(BASE.replace("http", "ws", 1) + f"/api/v1/home/websocket?flat_id={flat_id}")
    try:
        assert json.loads(socket.recv())["type"] == "auth_required"
        socket.send(json.dumps({"type": "auth", "access_token": token(user)}))
        assert json.loads(socket.recv())["type"] == "auth_ok"
        socket.send(json.dumps({"id": 1, "type": "get_states"}))
        answer = json.loads(socket.recv())
        assert answer["success"], answer
        return {s["entity_id"]: s for s in answer["result"]}
    finally:
        socket.close()


class HomeTests(DashboardTestCase):

    def test_a_carer_sees_only_her_flats(self):
        mine = flats("nurse2")
        self.assertEqual([f["resident_name"] for f in mine], ["Ana Ferreira"], "nurse2 cares for Ana only")
        login(self.driver, "nurse2")
        self.driver.get(BASE + "/#/homes")
        wait(self.driver, lambda d: css(d, "#flats .flat-tile"), "the flat tiles show")
        tiles = self.driver.execute_script(
            "return [...document.querySelectorAll('#flats .flat-tile')].map(t => [Number(t.dataset.flat), t.dataset.light,"
            " t.querySelector('.resident-name').textContent, !!t.querySelector('svg.floor-plan.mini polygon'),"
            " t.querySelector('.condition').textContent])")
        self.assertEqual([t[0] for t in tiles], [f["id"] for f in mine])
        expected_light = "alarm" if mine[0]["open_alarms"] else "warning" if mine[0]["open_warnings"] else "fine"
        self.assertEqual(tiles[0][1], expected_light, "the traffic light follows the open messages")
        self.assertEqual(tiles[0][2], "Ana Ferreira")
        self.assertTrue(tiles[0][3], "the tile has a mini floor plan")
        self.assertIn(tiles[0][4], ("Normal", "Inactive"))
        wait(self.driver, lambda d: attr(d, "#flats svg.floor-plan.mini", "data-occupied") != "", "the mini plan shows where Ana is")
        shot(self.driver, "homes")

        joseph = flat_of("resident-02")
        self.expected_console = ("403",)
        self.driver.get(BASE + f"/#/homes/{joseph['id']}")
        wait(self.driver, lambda d: "not one of yours" in text(d, "#main"), "Joseph's flat is refused to nurse2")
        status, _ = call("GET", f"/api/v1/homes/{joseph['id']}", token=token("nurse2"))
        self.assertEqual(status, 403)

        self.driver.execute_script("sessionStorage.clear()")
        login(self.driver, "admin")
        self.driver.get(BASE + "/#/homes")
        wait(self.driver, lambda d: len(css(d, "#flats .flat-tile")) == len(flats("admin")), "an admin sees every flat")

    def test_the_floor_plan_follows_events_live(self):
        flat = flat_of("resident-01")
        bedroom, kitchen = room(flat, "Bedroom"), room(flat, "Kitchen")
        motion, kitchen_motion = device(flat, "Bedroom motion"), device(flat, "Kitchen motion")
        thermometer = device(flat, "Kitchen temperature")
        login(self.driver, "nurse1")
        self.driver.get(BASE + f"/#/homes/{flat['id']}")
        wait(self.driver, lambda d: len(css(d, "svg.floor-plan g.device")) == len(flat["devices"]), "every device has its icon")
        self.assertEqual(len(css(self.driver, "svg.floor-plan g.room")), len(flat["rooms"]))

        try:
            self.follow_the_plan(flat, bedroom, kitchen, motion, kitchen_motion, thermometer)
        finally:  # the demo's batteries as they were for the other tests
            post_events(flat, [{"device_id": thermometer["id"], "value": 21.5, "battery": 100, "time": now()}])

    def follow_the_plan(self, flat, bedroom, kitchen, motion, kitchen_motion, thermometer):
        post_events(flat, [{"device_id": motion["id"], "value": 0, "battery": 90, "time": now()}])
        icon = f'svg.floor-plan g.device[data-device="{motion["id"]}"]'
        wait(self.driver, lambda d: attr(d, icon, "data-state") == "off", "the bedroom motion icon shows off")
        post_events(flat, [{"device_id": motion["id"], "value": 1, "battery": 90, "time": now()}])
        wait(self.driver, lambda d: attr(d, icon, "data-state") == "on" and "state-on" in attr(d, icon, "class"),
             "the bedroom motion icon turns on live")
        wait(self.driver, lambda d: attr(d, "svg.floor-plan", "data-occupied") == str(bedroom["id"]), "the resident is marked in the bedroom")
        post_events(flat, [{"device_id": kitchen_motion["id"], "value": 1, "battery": 90, "time": now()}])
        wait(self.driver, lambda d: attr(d, "svg.floor-plan", "data-occupied") == str(kitchen["id"])
             and attr(d, "svg.floor-plan", "data-previous") == str(bedroom["id"]), "the marker moves to the kitchen, the bedroom is previous")
        self.assertTrue(css(self.driver, f'svg.floor-plan g.room.occupied[data-room="{kitchen["id"]}"]'))
        self.assertTrue(css(self.driver, f'svg.floor-plan g.room.previous[data-room="{bedroom["id"]}"]'))

        thermo_icon = f'svg.floor-plan g.device[data-device="{thermometer["id"]}"]'
        post_events(flat, [{"device_id": thermometer["id"], "value": 21.5, "battery": 15, "time": now()}])
        wait(self.driver, lambda d: attr(d, thermo_icon, "data-battery") == "weak" and css(d, thermo_icon + " circle.battery-ring"),
             "a weak battery gets a yellow ring")
        post_events(flat, [{"device_id": thermometer["id"], "value": 21.5, "battery": 3, "time": now()}])
        wait(self.driver, lambda d: attr(d, thermo_icon, "data-battery") == "empty", "an empty one a red ring")

        # The kitchen's icons cover its middle: the click goes to the room itself, as on a free spot of its floor.
        self.driver.execute_script(
            "document.querySelector(arguments[0]).dispatchEvent(new MouseEvent('click', {bubbles: true}))",
            f'svg.floor-plan g.room[data-room="{kitchen["id"]}"]')
        wait(self.driver, lambda d: attr(d, "#room-panel", "data-room") == str(kitchen["id"]) and not css(d, "#room-panel[hidden]"),
             "the kitchen's popover opens")
        self.assertEqual(text(self.driver, "#room-panel .room-occupied"), "here now")
        self.assertEqual(text(self.driver, "#room-panel .room-temperature"), "21.5 °C")
        self.assertEqual(text(self.driver, "#room-panel .room-battery"), "lowest 3 % (Kitchen temperature)")
        post_events(flat, [{"device_id": thermometer["id"], "value": 21.0, "time": now()}])
        wait(self.driver, lambda d: text(d, "#room-panel .room-temperature") == "21 °C", "the popover follows a new reading")
        self.assertEqual(attr(self.driver, thermo_icon, "data-battery"), "empty", "a reading without a battery level keeps the last one")
        self.assertIn("ago", text(self.driver, "#room-panel .room-last-motion"))

        before = float(attr(self.driver, "svg.floor-plan", "data-zoom"))
        click(self.driver, "#zoom-in")
        wait(self.driver, lambda d: float(attr(d, "svg.floor-plan", "data-zoom")) > before, "zoom in")
        zoomed = attr(self.driver, "svg.floor-plan", "viewBox")
        self.driver.find_element(By.ID, "plan-frame").send_keys(Keys.ARROW_RIGHT)
        wait(self.driver, lambda d: attr(d, "svg.floor-plan", "viewBox") != zoomed, "the arrow keys pan the plan")
        click(self.driver, "#zoom-reset")
        wait(self.driver, lambda d: attr(d, "svg.floor-plan", "data-zoom") == "1.00", "Fit shows the whole flat again")
        from selenium.webdriver.support.ui import Select
        Select(self.driver.find_element(By.ID, "device-filter")).select_by_value("kind:motion")
        hidden = self.driver.execute_script(
            "return [...document.querySelectorAll('svg.floor-plan g.device')].filter(g => !g.hasAttribute('hidden')).map(g => g.dataset.kind)")
        self.assertTrue(hidden and set(hidden) == {"motion"}, f"only motion sensors show: {hidden}")
        Select(self.driver.find_element(By.ID, "device-filter")).select_by_value("all")
        # The README's picture: the top of the page, without the toasts of the alarms this test caused (they go by themselves).
        self.driver.execute_script("window.scrollTo(0, 0); document.getElementById('toasts').replaceChildren()")
        shot(self.driver, "home-plan")

    def test_an_actuator_round_trip(self):
        flat = flat_of("resident-01")
        lamp = device(flat, "Desk lamp")
        login(self.driver, "nurse1")
        self.driver.get(BASE + f"/#/homes/{flat['id']}/devices/{lamp['id']}")
        wait(self.driver, lambda d: css(d, "#switch"), "the switch shows")
        was_on = attr(self.driver, "#switch", "aria-pressed") == "true"
        click(self.driver, "#switch")
        wait(self.driver, lambda d: attr(d, "#actuator-status", "data-phase") == "confirmed", "the device confirms the command")
        expected = "off" if was_on else "on"
        self.assertEqual(attr(self.driver, "#device-value", "data-state"), expected)
        self.assertEqual(text(self.driver, "#switch"), "Turn on" if was_on else "Turn off", "the switch offers the opposite now")
        self.assertEqual(bus_states("nurse1", flat["id"])[lamp["entity_id"]]["state"], expected, "the server has the confirmed state")

        # The same switch from the living room's popover, as the thesis's room view offers it.
        living = room(flat, "Living room")
        self.driver.get(BASE + f"/#/homes/{flat['id']}")
        wait(self.driver, lambda d: css(d, "svg.floor-plan g.device"), "the plan shows")
        self.driver.execute_script(
            "document.querySelector(arguments[0]).dispatchEvent(new MouseEvent('click', {bubbles: true}))",
            f'svg.floor-plan g.room[data-room="{living["id"]}"]')
        row = f'#room-panel tr[data-device="{lamp["id"]}"]'
        wait(self.driver, lambda d: text(d, row + " button.switch") == ("Turn on" if expected == "off" else "Turn off"), "the popover has the lamp's switch")
        click(self.driver, row + " button.switch")
        wait(self.driver, lambda d: attr(d, row + " .actuator-status", "data-phase") == "confirmed", "the lamp confirms from the popover")
        self.assertEqual(bus_states("nurse1", flat["id"])[lamp["entity_id"]]["state"], "on" if expected == "off" else "off")
        wait(self.driver, lambda d: attr(d, f'svg.floor-plan g.device[data-device="{lamp["id"]}"]', "data-state") == ("on" if expected == "off" else "off"),
             "the lamp's icon follows")

        dimmer = device(flat, "Hall light")
        self.driver.get(BASE + f"/#/homes/{flat['id']}/devices/{dimmer['id']}")
        wait(self.driver, lambda d: css(d, "#position"), "the dimmer's slider shows")
        self.driver.execute_script(
            "const s = document.getElementById('position'); s.value = 40; s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change'));")
        wait(self.driver, lambda d: attr(d, "#actuator-status", "data-phase") == "confirmed" and text(d, "#device-value") == "40 %",
             "the dimmer confirms 40 %")
        self.assertEqual(bus_states("nurse1", flat["id"])[dimmer["entity_id"]]["attributes"]["brightness"], 102)
        wait(self.driver, lambda d: text(d, "#device-history tbody tr:first-child .value") == "40 %",
             "the history gains the confirmed value live")
        self.assertNotEqual(attr(self.driver, "#device-chart svg", "data-points"), "0", "the chart has this hour's mean")
        shot(self.driver, "home-device")

    def test_an_alarm_arrives_live_is_confirmed_and_stops_escalating(self):
        flat = flat_of("resident-02")
        smoke = device(flat, "Kitchen smoke")
        post_events(flat, [{"device_id": smoke["id"], "value": 0, "battery": 90, "time": now()}])
        try:
            self.confirm_the_alarm(flat, smoke)
        finally:  # the detector clear again
            post_events(flat, [{"device_id": smoke["id"], "value": 0, "battery": 90, "time": now()}])

    def confirm_the_alarm(self, flat, smoke):
        login(self.driver, "nurse1")
        self.driver.get(BASE + f"/#/homes/{flat['id']}/messages")
        wait(self.driver, lambda d: css(d, "#home-messages"), "the messages show")
        post_events(flat, [{"device_id": smoke["id"], "value": 1, "battery": 90, "time": now()}])
        alarm = '#home-messages li[data-class="alarm"][data-state="open"][data-key="hazard:%d"]' % smoke["id"]
        wait(self.driver, lambda d: css(d, alarm), "the smoke alarm arrives live")
        wait(self.driver, lambda d: d.execute_script(
            "return [...document.querySelectorAll('#toasts .toast-alarm')].some(t => t.textContent.includes('Smoke in the kitchen'))"),
            "and is announced")
        self.assertIn("Smoke in the kitchen", text(self.driver, alarm + " h3"))
        wait(self.driver, lambda d: attr(d, "#flat-light .light", "data-light") == "alarm", "the flat's light turns red")
        wait(self.driver, lambda d: css(d, alarm + ' .escalation-state[data-escalating="true"]'), "the carers are being reminded")
        message_id = attr(self.driver, alarm, "data-message")
        status, before = call("GET", f"/api/v1/homes/{flat['id']}/messages/{message_id}", token=token("nurse1"))
        self.assertEqual(status, 200, before)
        self.assertTrue(before["escalation"]["escalating"], "the carers are being reminded")
        shot(self.driver, "home-messages")

        click(self.driver, alarm + " button.confirm-message")
        wait(self.driver, lambda d: not css(d, f'#home-messages li[data-message="{message_id}"]'), "the confirmed alarm leaves the current list")
        click(self.driver, 'button[data-filter="log"]')
        confirmed = f'#home-messages li[data-message="{message_id}"][data-state="confirmed"]'
        wait(self.driver, lambda d: css(d, confirmed + ' .escalation-state[data-escalating="false"]'),
             "the log shows it confirmed, its reminders stopped")
        self.assertIn("confirmed by nurse1", text(self.driver, confirmed + " .ack-state"))
        status, after = call("GET", f"/api/v1/homes/{flat['id']}/messages/{message_id}", token=token("nurse1"))
        self.assertEqual((after["state"], after["confirmed_by"]), ("confirmed", "nurse1"))
        self.assertFalse(after["escalation"]["escalating"], "the escalation stopped on the server")
        self.assertEqual(after["escalation"]["acknowledged_by"], "nurse1")
        self.assertEqual(len(after["escalation"]["steps"]), len(before["escalation"]["steps"]), "no reminder after confirming")

    def test_charts_render_with_the_demos_30_days(self):
        flat = flat_of("resident-01")
        thermometer = device(flat, "Living room temperature")
        login(self.driver, "admin")
        self.driver.get(BASE + f"/#/homes/{flat['id']}/devices/{thermometer['id']}")
        wait(self.driver, lambda d: attr(d, "#device-chart svg", "data-points") not in ("", "0"), "the day's chart has points")
        click(self.driver, 'button.period[data-period="month"]')
        wait(self.driver, lambda d: int(attr(d, "#device-chart svg", "data-points") or 0) >= 28, "a month of daily means")
        self.assertGreater(int(attr(self.driver, "#device-history", "data-rows") or 0), 100, "the month's readings are listed")
        click(self.driver, 'button.period[data-period="year"]')
        wait(self.driver, lambda d: "per week" in text(d, "#device-chart h3") and int(attr(d, "#device-chart svg", "data-points") or 0) >= 4,
             "a year of weekly means")

        self.driver.get(BASE + f"/#/homes/{flat['id']}/energy")
        wait(self.driver, lambda d: css(d, "#energy-chart svg"), "the energy chart shows")
        click(self.driver, 'button.period[data-period="month"]')
        day_of_month = datetime.datetime.now(datetime.timezone.utc).day  # the demo flats keep UTC
        wait(self.driver, lambda d: attr(d, "#energy-chart", "data-period") == "month", "this month's energy")
        self.assertEqual(int(attr(self.driver, "#energy-chart svg", "data-points")), day_of_month, "a bar pair for each day so far")
        consumed = float(attr(self.driver, "#energy-chart svg", "data-total-consumed"))
        self.assertGreater(consumed, 0)
        self.assertGreater(float(attr(self.driver, "#energy-chart svg", "data-total-generated")), 0)
        # The demo's meters keep counting live: a tick between the page's two reads (the total, then the
        # chart) makes them differ until the page reads them again, so the month is chosen anew (at most
        # every 2 s, for a read to finish) until they agree.
        asked = [time.monotonic()]

        def totals_agree(d):
            if text(d, "#energy-totals .consumed") == f"{float(attr(d, '#energy-chart svg', 'data-total-consumed')):,.1f} kWh":
                return True
            if time.monotonic() - asked[0] > 2:
                asked[0] = time.monotonic()
                click(d, 'button.period[data-period="month"]')
            return False
        wait(self.driver, totals_agree, "the days add up to the month's total")
        wait(self.driver, lambda d: "kWh" in text(d, "#energy-balance"), "the header shows the balance")
        first = attr(self.driver, "#energy-balance", "data-period")
        click(self.driver, "#energy-balance")
        self.assertNotEqual(attr(self.driver, "#energy-balance", "data-period"), first, "the balance moves on to the next period")
        shot(self.driver, "home-energy")

        self.driver.get(BASE + f"/#/homes/{flat['id']}/activity")
        wait(self.driver, lambda d: len(css(d, "#activity-days tbody tr")) == 30, "30 days of activity")
        self.assertGreaterEqual(int(attr(self.driver, "#score-chart svg", "data-points") or 0), 20, "the days' scores are drawn")
        self.assertTrue(css(self.driver, "#score-chart svg rect.band"), "with the normal band")
        self.assertEqual(len(css(self.driver, "#activity-days tbody tr:first-child .strip .hour")), 24)
        day = attr(self.driver, "#activity-days tbody tr:nth-child(3)", "data-day")
        click(self.driver, "#activity-days tbody tr:nth-child(3) button")
        wait(self.driver, lambda d: attr(d, "#day-detail", "data-day") == day, "a day's 24-hour strip opens")
        status, activity = call("GET", f"/api/v1/homes/{flat['id']}/activity", token=token("admin"))
        shown = text(self.driver, "#last-activity-alarm p")
        if "last_alarm" in activity:
            self.assertIn(activity["last_alarm"]["text"], shown, "the last activity alarm's reason")
        else:
            self.assertEqual(shown, "No activity alarm in these 30 days.")
        shot(self.driver, "home-activity")

        self.driver.get(BASE + f"/#/homes/{flat['id']}/batteries")
        wait(self.driver, lambda d: css(d, "#battery-list tbody tr[data-device]"), "the batteries show")
        charges = self.driver.execute_script(
            "return [...document.querySelectorAll('#battery-list tbody tr')].map(r => r.dataset.charge).filter(c => c !== '').map(Number)")
        self.assertEqual(charges, sorted(charges), "emptiest first")
        self.assertEqual(len(css(self.driver, "#battery-list tbody tr")), len([d for d in flat["devices"] if d["battery_powered"]]))
        shot(self.driver, "home-batteries")

    def test_an_admin_makes_and_edits_a_flat(self):
        name = unique("Flat")
        login(self.driver, "admin")
        self.driver.get(BASE + "/#/homes/new")
        wait(self.driver, lambda d: attr(d, "#plan-preview", "data-rooms") == "2", "the example plan is previewed")
        self.driver.find_element(By.CSS_SELECTOR, '#new-flat-form input[name="name"]').send_keys(name)
        self.driver.find_element(By.CSS_SELECTOR, '#new-flat-form input[name="carers"]').send_keys("nurse3")
        click(self.driver, 'button[data-mode="draw"]')
        wait(self.driver, lambda d: len(css(d, ".room-editor")) == 2, "the plan's rooms become editors")
        click(self.driver, "#add-room")
        editor = ".room-editor:last-of-type "
        self.driver.find_element(By.CSS_SELECTOR, editor + ".room-name-input").send_keys("Bedroom")
        self.driver.find_element(By.CSS_SELECTOR, editor + ".room-corners").send_keys("0,3 6,3 6,6 0,6")
        self.driver.find_element(By.CSS_SELECTOR, editor + ".room-devices").send_keys("Bed mat, enuresis, 1, 4.5, battery")
        wait(self.driver, lambda d: attr(d, "#plan-preview", "data-rooms") == "3", "the preview shows the new room")
        shot(self.driver, "home-new")
        click(self.driver, "#create-flat")
        wait(self.driver, lambda d: css(d, "svg.floor-plan g.device") and name in text(d, "h1"), "the new flat's plan opens")
        flat_id = self.driver.current_url.rsplit("/", 1)[-1]
        status, flat = call("GET", f"/api/v1/homes/{flat_id}", token=token("admin"))
        self.assertEqual((len(flat["rooms"]), len(flat["devices"]), flat["carers"]), (3, 5, ["nurse3"]))

        self.driver.get(BASE + f"/#/homes/{flat_id}/settings")
        wait(self.driver, lambda d: css(d, "#flat-settings"), "the settings show")
        renamed = name + " B"
        field = self.driver.find_element(By.CSS_SELECTOR, '#flat-settings input[name="name"]')
        field.clear()
        field.send_keys(renamed)
        click(self.driver, "#save-flat")
        wait(self.driver, lambda d: text(d, "h1") == renamed, "the flat is renamed")
        self.assertEqual(call("GET", f"/api/v1/homes/{flat_id}", token=token("admin"))[1]["name"], renamed)
        self.assertIn(int(flat_id), [f["id"] for f in flats("nurse3")], "its carer sees it")

    def test_phone_width(self):
        self.use_phone()
        login(self.driver, "nurse1")
        self.driver.get(BASE + "/#/homes")
        wait(self.driver, lambda d: css(d, "#flats .flat-tile svg"), "the tiles show")
        self.assertTrue(no_sideways_scroll(self.driver), "the overview fits a phone")
        shot(self.driver, "homes-phone")
        flat = flat_of("resident-01")
        self.driver.get(BASE + f"/#/homes/{flat['id']}")
        wait(self.driver, lambda d: css(d, "svg.floor-plan g.device"), "the plan shows")
        self.assertTrue(no_sideways_scroll(self.driver), "the plan fits a phone")
        shot(self.driver, "home-plan-phone")
        self.driver.get(BASE + f"/#/homes/{flat['id']}/activity")
        wait(self.driver, lambda d: css(d, "#activity-days tbody tr"), "the days show")
        self.assertTrue(no_sideways_scroll(self.driver), "the activity fits a phone")

    def test_keyboard_only(self):
        flat = flat_of("resident-01")
        login(self.driver, "nurse1")
        self.driver.get(BASE + "/#/homes")
        wait(self.driver, lambda d: css(d, f'#flats [data-flat="{flat["id"]}"] a.tile-link'), "the tiles show")

        def tab_to(selector, limit=80):
            actions = ActionChains(self.driver)
            for _ in range(limit):
                if self.driver.execute_script("return document.activeElement.matches(arguments[0])", selector):
                    return
                actions.send_keys(Keys.TAB).perform()
            self.fail(f"Tab never reached {selector}")

        tab_to(f'[data-flat="{flat["id"]}"] a.tile-link')
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        wait(self.driver, lambda d: css(d, "svg.floor-plan g.device"), "Enter opens the flat")
        tab_to("svg.floor-plan g.room")
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        wait(self.driver, lambda d: not css(d, "#room-panel[hidden]") and attr(d, "#room-panel", "data-room"), "Enter opens a room's popover")
        tab_to("svg.floor-plan g.device")
        focused = self.driver.execute_script("return document.activeElement.dataset.device")
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        wait(self.driver, lambda d: d.current_url.endswith(f"/devices/{focused}") and css(d, "#device-value"), "Enter opens the device")
