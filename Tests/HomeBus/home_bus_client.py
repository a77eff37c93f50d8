"""Drives the home event bus of a running `sade serve --demo` as a client in another
language would: Python's `websockets` over a real socket, REST with urllib.

Usage: home_bus_client.py --url http://127.0.0.1:PORT
Exits 0 when every check passes; prints each failed check otherwise.
"""
import argparse, json, sys, time, urllib.request, urllib.error, warnings
from websockets.sync.client import connect
from websockets.exceptions import ConnectionClosed

warnings.filterwarnings("ignore", category=DeprecationWarning)  # sockets are closed explicitly, not with `with`

failures = []
checks = 0


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        failures.append(what)
        print("FAILED:", what, flush=True)


def rest(base, method, path, token=None, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def login(base, username):
    status, body = rest(base, "POST", "/api/v1/auth/login", body={"username": username, "password": "sade-demo"})
    assert status == 200, (status, body)
    return body["token"]


class Bus:
    """One authenticated connection; `call` sends a command and returns its answer."""

    def __init__(self, base, token, flat=None):
        url = base.replace("http://", "ws://") + "/api/v1/home/websocket" + (f"?flat_id={flat}" if flat else "")
        self.socket = connect(url, max_size=2**24, open_timeout=10)
        self.next_id = 1
        self.pending_events = []
        first = self.receive()
        check(first.get("type") == "auth_required", f"auth_required first, got {first}")
        self.socket.send(json.dumps({"type": "auth", "access_token": token}))
        self.auth = self.receive()

    def receive(self, timeout=20):
        return json.loads(self.socket.recv(timeout=timeout))

    def call(self, command, timeout=20):
        command = dict(command, id=self.next_id)
        self.next_id += 1
        self.socket.send(json.dumps(command))
        return self.answer(command["id"], timeout)

    def answer(self, id, timeout=20):
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.1, deadline - time.monotonic()))
            if message.get("id") == id and message.get("type") in ("result", "pong"):
                return message
            if message.get("type") == "event":
                self.pending_events.append(message)

    def event(self, predicate, timeout=20):
        for index, message in enumerate(self.pending_events):
            if predicate(message):
                return self.pending_events.pop(index)
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.1, deadline - time.monotonic()))
            if message.get("type") == "event" and predicate(message):
                return message
            if message.get("type") == "event":
                self.pending_events.append(message)

    def close(self):
        self.socket.close()


def result_ok(answer, what):
    check(answer.get("type") == "result" and answer.get("success") is True, f"{what}: {json.dumps(answer)[:300]}")
    return answer.get("result")


def error_code(answer):
    return (answer.get("error") or {}).get("code") if answer.get("success") is False else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    base = parser.parse_args().url.rstrip("/")

    admin = login(base, "admin")
    status, flats = rest(base, "GET", "/api/v1/homes", admin)
    check(status == 200 and len(flats) == 2, f"two demo flats over REST: {status} {flats}")
    names = sorted(flat["name"] for flat in flats)
    check(names == ["Ana's flat", "Joseph's flat"], f"the demo flats' names: {names}")
    ana = next(flat for flat in flats if flat["name"] == "Ana's flat")
    joseph = next(flat for flat in flats if flat["name"] == "Joseph's flat")
    status, plan = rest(base, "GET", f"/api/v1/homes/{ana['id']}", admin)
    check(status == 200 and len(plan["rooms"]) >= 4 and len(plan["devices"]) >= 20, f"the floor plan: {status} {str(plan)[:200]}")

    # The auth phase.
    bus = Bus(base, admin, ana["id"])
    check(bus.auth.get("type") == "auth_ok", f"auth_ok for the admin: {bus.auth}")

    pong = bus.call({"type": "ping"})
    check(pong.get("type") == "pong", f"ping answers pong: {pong}")

    states = result_ok(bus.call({"type": "get_states"}), "get_states")
    entities = {state["entity_id"]: state for state in states or []}
    check("binary_sensor.kitchen_motion" in entities, f"get_states lists binary_sensor.kitchen_motion: {sorted(entities)[:10]}")
    for domain in ("binary_sensor", "sensor", "switch", "light", "cover"):
        check(any(e.startswith(domain + ".") for e in entities), f"a {domain} entity among {sorted(entities)}")
    motion = entities.get("binary_sensor.kitchen_motion", {})
    check(motion.get("state") in ("on", "off") and "last_changed" in motion and "last_updated" in motion,
          f"a state's shape: {motion}")
    check(motion.get("attributes", {}).get("device_class") == "motion" and motion["attributes"].get("room") == "Kitchen",
          f"its attributes: {motion.get('attributes')}")
    power = entities.get("sensor.pv_power", {})
    check(power.get("attributes", {}).get("unit_of_measurement") == "W", f"pv power in W: {power}")

    subscription = bus.call({"type": "subscribe_events", "event_type": "state_changed"})
    result_ok(subscription, "subscribe_events state_changed")
    messages = bus.call({"type": "subscribe_events", "event_type": "home_message"})
    result_ok(messages, "subscribe_events home_message")

    # call_service: the demo's gateway carries the command out; the result comes with the new state.
    lamp = result_ok(bus.call({"type": "call_service", "domain": "switch", "service": "turn_on", "target": {"entity_id": "switch.desk_lamp"}}),
                     "call_service switch.turn_on")
    check((lamp or {}).get("state", {}).get("state") == "on", f"the lamp is on: {lamp}")
    changed = bus.event(lambda m: m["event"]["event_type"] == "state_changed" and m["event"]["data"]["entity_id"] == "switch.desk_lamp")
    check(changed["id"] == subscription["id"] and changed["event"]["data"]["new_state"]["state"] == "on",
          f"state_changed for the lamp on the subscription: {changed}")
    dimmer = result_ok(bus.call({"type": "call_service", "domain": "light", "service": "turn_on",
                                 "service_data": {"brightness_pct": 40}, "target": {"entity_id": "light.hall_dimmer"}}), "dimmer")
    check((dimmer or {}).get("state", {}).get("attributes", {}).get("brightness") == 102, f"dimmer at 40 %: {dimmer}")
    shades = result_ok(bus.call({"type": "call_service", "domain": "cover", "service": "set_cover_position",
                                 "service_data": {"position": 30}, "target": {"entity_id": "cover.bedroom_shades"}}), "shades")
    check((shades or {}).get("state", {}).get("attributes", {}).get("current_position") == 30, f"shades at 30 %: {shades}")
    toggled = result_ok(bus.call({"type": "call_service", "domain": "switch", "service": "toggle", "target": {"entity_id": "switch.desk_lamp"}}),
                        "toggle")
    check((toggled or {}).get("state", {}).get("state") == "off", f"toggled off: {toggled}")
    wrong = bus.call({"type": "call_service", "domain": "switch", "service": "turn_on", "target": {"entity_id": "sensor.pv_power"}})
    check(error_code(wrong) == "invalid_format", f"a sensor cannot be switched: {wrong}")

    # History and statistics (30 days of demo history).
    day_ago = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 86400))
    history = result_ok(bus.call({"type": "history/history_during_period", "start_time": day_ago,
                                  "entity_ids": ["sensor.kitchen_temperature", "binary_sensor.kitchen_motion"]}), "history")
    rows = (history or {}).get("sensor.kitchen_temperature", [])
    check(len(rows) >= 40 and "s" in rows[0] and "lu" in rows[0] and "a" in rows[0], f"a day of temperature history: {len(rows)} {rows[:2]}")
    month_ago = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 30 * 86400))
    stats = result_ok(bus.call({"type": "recorder/statistics_during_period", "start_time": month_ago,
                                "statistic_ids": ["sensor.kitchen_temperature"], "period": "day"}), "statistics")
    days = (stats or {}).get("sensor.kitchen_temperature", [])
    check(len(days) >= 28 and all(k in days[0] for k in ("start", "end", "mean", "min", "max", "sum", "change")),
          f"daily statistics over 30 days: {len(days)} {days[:1]}")
    hourly = result_ok(bus.call({"type": "recorder/statistics_during_period", "start_time": day_ago,
                                 "statistic_ids": ["sensor.house_power"], "period": "hour"}), "hourly statistics")
    check(len((hourly or {}).get("sensor.house_power", [])) >= 20, f"hourly power statistics: {str(hourly)[:200]}")

    # The thesis's seven requests.
    kitchen_motion = entities["binary_sensor.kitchen_motion"]["attributes"]["device_id"]
    lamp_id = entities["switch.desk_lamp"]["attributes"]["device_id"]
    now_ms = int(time.time() * 1000)
    requests = {
        "REQUEST_LATEST_EVENT": {},
        "REQUEST_MESSAGES_FOR_SENSOR": {"deviceId": kitchen_motion, "startDate": now_ms - 86400000, "endDate": now_ms},
        "REQUEST_SENSOR_DATA": {"deviceId": kitchen_motion, "startDate": now_ms - 86400000, "endDate": now_ms},
        "REQUEST_ENERGY_DATA": {"value": 1, "startDate": now_ms - 7 * 86400000, "endDate": now_ms},
        "REQUEST_LATEST_MOTION": {"startDate": now_ms - 86400000, "endDate": now_ms},
        "REQUEST_ACTUATOR_REQUEST_EVENT": {"deviceId": lamp_id},
        "REQUEST_CURRENT_ACTIVITY_CONDITION": {},
    }
    answers = {}
    for name, arguments in requests.items():
        answers[name] = result_ok(bus.call(dict({"type": "homer/request", "request": name}, **arguments)), name)
    check(len(answers["REQUEST_LATEST_EVENT"] or []) >= 20, "latest event of every device")
    check(len(answers["REQUEST_MESSAGES_FOR_SENSOR"] or []) >= 10, "a day of kitchen motion messages")
    check(len((answers["REQUEST_SENSOR_DATA"] or {}).get("series", [])) >= 10, "kitchen motion as a chart series")
    energy = answers["REQUEST_ENERGY_DATA"] or {}
    check(len(energy.get("consumers", [])) >= 6 and sum(v for _, v in energy.get("generators", [])) > 0,
          f"a week of energy, consumers and generators: {str(energy)[:300]}")
    check(len((answers["REQUEST_LATEST_MOTION"] or {}).get("rooms", [])) >= 4, "motion per room")
    check((answers["REQUEST_ACTUATOR_REQUEST_EVENT"] or {}).get("state") == "off", f"the lamp's state: {answers['REQUEST_ACTUATOR_REQUEST_EVENT']}")
    check((answers["REQUEST_CURRENT_ACTIVITY_CONDITION"] or {}).get("condition") in ("normal", "inactive"), "the activity condition")
    check(error_code(bus.call({"type": "homer/request", "request": "REQUEST_NOTHING"})) == "unknown_command", "an unknown request")

    # Bad input: an error result with a code, and the connection stays usable.
    bus.socket.send("this is not json")
    check(error_code(json.loads(bus.socket.recv(timeout=10))) == "invalid_format", "invalid JSON")
    bus.socket.send(json.dumps({"type": "ping"}))
    check(error_code(json.loads(bus.socket.recv(timeout=10))) == "invalid_format", "a command without id")
    bus.socket.send(json.dumps({"id": 1, "type": "ping"}))
    check(error_code(json.loads(bus.socket.recv(timeout=10))) == "id_reuse", "a repeated id")
    check(error_code(bus.call({"type": "no_such_command"})) == "unknown_command", "an unknown command")
    check(error_code(bus.call({"type": "history/history_during_period", "start_time": day_ago, "entity_ids": ["sensor.nothing"]})) == "not_found",
          "an unknown entity")
    check(error_code(bus.call({"type": "subscribe_events", "event_type": "everything"})) == "invalid_format", "an unknown event type")
    check(error_code(bus.call({"type": "unsubscribe_events", "subscription": 9999})) == "not_found", "unsubscribing nothing")
    check(bus.call({"type": "ping"}).get("type") == "pong", "still usable after bad input")
    result_ok(bus.call({"type": "unsubscribe_events", "subscription": subscription["id"]}), "unsubscribe_events")

    # A gateway: a device token of the resident posts events for its flat only.
    status, issued = rest(base, "POST", f"/api/v1/patients/{ana['resident']}/devices", admin, {"label": "Ana's gateway"})
    check(status == 201, f"a device token for Ana's gateway: {status} {issued}")
    gateway = Bus(base, issued["secret"])
    check(gateway.auth.get("type") == "auth_ok", f"the gateway authenticates: {gateway.auth}")
    fall = entities["binary_sensor.bathroom_fall"]["attributes"]["device_id"]
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    clear = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 2))
    posted = result_ok(gateway.call({"type": "homer/post_events", "events": [
        {"device_id": fall, "value": 0, "battery": 77, "time": clear}, {"device_id": fall, "value": 1, "battery": 77, "time": stamp}]}),
        "the gateway posts a fall")
    check((posted or {}).get("accepted") == 2, f"two events accepted: {posted}")
    alarm = bus.event(lambda m: m["event"]["event_type"] == "home_message" and m["event"]["data"]["message"]["class"] == "alarm"
                      and m["event"]["data"]["message"]["device_id"] == fall)
    check(alarm["id"] == messages["id"], "the fall alarm arrives on the home_message subscription")
    future = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3600))
    check(error_code(gateway.call({"type": "homer/post_events", "events": [{"device_id": fall, "value": 0, "time": future}]})) == "invalid_format",
          "an event from the future")
    check(error_code(gateway.call({"type": "homer/post_events", "events": [{"device_id": 999999, "value": 0, "time": stamp}]})) == "invalid_format",
          "an unknown device")
    status, body = rest(base, "POST", f"/api/v1/homes/{joseph['id']}/events", issued["secret"],
                        {"events": [{"device_id": fall, "value": 1, "time": stamp}]})
    check(status == 403, f"Ana's gateway cannot post to Joseph's flat: {status} {body}")
    check(error_code(gateway.call({"type": "call_service", "domain": "switch", "service": "turn_on", "target": {"entity_id": "switch.desk_lamp"}}))
          == "unauthorized", "a gateway does not command devices")
    gateway.close()

    # The alarm is confirmed over the bus; nurse1 (a carer) sees it among the messages.
    message = alarm["event"]["data"]["message"]
    confirmed = result_ok(bus.call({"type": "homer/confirm_message", "message_id": message["id"]}), "confirm the alarm")
    check((confirmed or {}).get("state") == "confirmed" and confirmed.get("confirmed_by") == "admin", f"confirmed: {confirmed}")
    bus.close()

    # A carer sees their flats only.
    nurse2 = login(base, "nurse2")  # Ana's carer, not Joseph's
    status, theirs = rest(base, "GET", "/api/v1/homes", nurse2)
    check(status == 200 and [f["name"] for f in theirs] == ["Ana's flat"], f"nurse2 sees Ana's flat only: {theirs}")
    check(rest(base, "GET", f"/api/v1/homes/{joseph['id']}", nurse2)[0] == 403, "nurse2 cannot read Joseph's flat")
    refused = Bus(base, nurse2, joseph["id"])
    check(refused.auth.get("type") == "auth_invalid", f"nurse2 cannot open Joseph's flat on the bus: {refused.auth}")
    try:
        refused.socket.recv(timeout=5)
        check(False, "the socket closes after auth_invalid")
    except ConnectionClosed as closed:
        check(closed.rcvd is not None and closed.rcvd.code == 1008, f"closed with 1008: {closed.rcvd}")
    carer = Bus(base, nurse2)
    carer_states = result_ok(carer.call({"type": "get_states"}), "nurse2's states")
    check({s["attributes"]["flat_id"] for s in carer_states or []} == {ana["id"]}, "nurse2's states are Ana's flat's only")
    check(error_code(carer.call({"type": "get_states", "flat_id": joseph["id"]})) == "not_found", "nurse2 cannot name Joseph's flat")
    carer.close()

    # A bad token; an oversized frame.
    bad = Bus(base, "not-a-token")
    check(bad.auth.get("type") == "auth_invalid", f"a bad token is refused: {bad.auth}")
    big = Bus(base, admin, ana["id"])
    try:
        big.socket.send(json.dumps({"id": 1, "type": "ping", "padding": "x" * 100000}))
        big.socket.recv(timeout=10)
        check(False, "an oversized frame closes the socket")
    except ConnectionClosed as closed:
        check(closed.rcvd is not None and closed.rcvd.code == 1009, f"closed with 1009 (too big): {closed.rcvd}")

    # An auth that never comes: the socket is closed (1008) after the server's timeout.
    silent = connect(base.replace("http://", "ws://") + "/api/v1/home/websocket", open_timeout=10)
    check(json.loads(silent.recv(timeout=10)).get("type") == "auth_required", "auth_required on a silent socket")
    try:
        silent.recv(timeout=30)
        check(False, "a socket that never authenticates is closed")
    except ConnectionClosed as closed:
        check(closed.rcvd is not None and closed.rcvd.code == 1008, f"closed with 1008 (no auth): {closed.rcvd}")

    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
