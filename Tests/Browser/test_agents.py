"""An admin looks inside the agents: the Sniffer draws the Contract Net AlertAgent runs
with the care workers when a patient deteriorates, the Introspector shows AlertAgent's
goal and reasoning change live, and a message sent to an agent comes back answered."""

import glob
import os
import re

from selenium.common.exceptions import ElementNotInteractableException, NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from sade_browser import (
    BASE, DashboardTestCase, call, choose, click, css, device_token, fill, login, no_sideways_scroll, now, press, shot, text,
    token, unique, wait)

COVID_WARD = "covid-ward"

# The arrows the diagram shows now (not filtered out), as their data attributes.
FIRST_ROW = 66  # sniffer.js: TOP, the first row's line
SHOWN_ARROWS = """return [...document.querySelectorAll('#sequence g.arrow:not([hidden])')]
  .map(a => Object.assign({transform: a.getAttribute('transform')}, a.dataset))"""


def deteriorate(test, admin):
    """Admits a patient of the test's own to the COVID ward and posts vital signs that
    score NEWS2 high: AlertAgent offers the alert to the ward's care workers. The
    patient is discharged after the test, off the ward's lists the other tests show."""
    patient = unique("agents")
    status, answer = call("POST", "/api/v1/patients", {"id": patient, "name": "Agent Watcher", "sector": COVID_WARD, "bed": "A-1"}, admin)
    assert status == 201, answer
    test.addCleanup(call, "POST", f"/api/v1/patients/{patient}/discharge", None, admin)
    device = device_token(patient, admin)
    at = now()
    batch = [{"type": "heartRate", "value": 138, "start": at}, {"type": "respiratoryRate", "value": 29, "start": at},
             {"type": "oxygenSaturation", "value": 86, "start": at}, {"type": "bloodPressureSystolic", "value": 88, "start": at},
             {"type": "bodyTemperature", "value": 39.6, "start": at}]
    status, answer = call("POST", f"/api/v1/patients/{patient}/observations", batch, device)
    assert status == 201, answer
    return patient


def clear_toasts(driver):
    """Takes the patient's alert toasts away: they would cover the page in screenshots."""
    driver.execute_script("document.getElementById('toasts').replaceChildren()")


def contract_nets(driver):
    """The conversations in the diagram where AlertAgent called a care worker for
    proposals, a care worker answered, and AlertAgent accepted a proposal."""
    arrows = driver.execute_script(SHOWN_ARROWS)
    found = []
    for conversation in {a["conversation"] for a in arrows if a["conversation"]}:
        steps = [a for a in arrows if a["conversation"] == conversation]
        called = any(a["performative"] == "cfp" and a["sender"] == "AlertAgent" and a["receiver"].startswith("CareWorker-") for a in steps)
        answered = any(a["performative"] in ("propose", "refuse") and a["sender"].startswith("CareWorker-") and a["receiver"] == "AlertAgent"
                       for a in steps)
        accepted = any(a["performative"] == "accept-proposal" and a["sender"] == "AlertAgent" for a in steps)
        if called and answered and accepted:
            found.append(conversation)
    return found


def counter(driver, selector):
    """A table cell's number; -1 while it shows none (–)."""
    value = text(driver, selector)
    return int(value) if value.isdigit() else -1


def show_cfp_of(driver, patient):
    """Opens, with the keyboard, the cfp of each complete Contract Net in turn until one
    is about `patient`; returns its conversation id (None while there is none)."""
    for conversation in contract_nets(driver):
        try:  # the caller's wait tries again if a redraw replaced the arrow meanwhile
            driver.find_element(By.CSS_SELECTOR, f'#sequence g.arrow[data-performative="cfp"][data-conversation="{conversation}"]').send_keys(Keys.ENTER)
        except (StaleElementReferenceException, NoSuchElementException, ElementNotInteractableException):
            return None
        if patient in text(driver, "#message-detail pre"):
            return conversation
    return None


class AgentPagesTests(DashboardTestCase):
    def test_the_sniffer_draws_the_contract_net_for_a_deteriorating_patient(self):
        admin = token("admin")
        login(self.driver, "admin")
        self.driver.get(BASE + "/#/sniffer/monitoring")
        wait(self.driver, lambda d: css(d, '#sniff-agents input[type=checkbox][value="AlertAgent"]'), "the platform's agents are offered")
        self.assertTrue(css(self.driver, '#platform-choice a[data-platform="monitoring"][aria-current="page"]'), "the platform is marked as chosen")
        # The demo's own care workers (nurse1, doctor2…): other tests add staff of their own.
        workers = self.driver.execute_script(
            "return [...document.querySelectorAll('#sniff-agents input[type=checkbox][value^=\"CareWorker-\"]')].map(b => b.value)"
            ".filter(name => /^CareWorker-[a-z]+[0-9]+$/.test(name))")
        self.assertTrue(workers, "the care workers' agents are offered")
        for agent in ["AlertAgent", *workers]:
            click(self.driver, f'#sniff-agents input[value="{agent}"]')
        click(self.driver, "#sniff-start")
        wait(self.driver, lambda d: f"Sniffing {len(workers) + 1} agents" in text(d, "#sniff-state") and text(d, "#sniff-start") == "Stop sniffing",
             "the sniffer listens to the chosen agents")
        lanes = self.driver.execute_script("return [...document.querySelectorAll('#sequence g.lane')].map(l => l.dataset.agent)")
        self.assertEqual(lanes[:len(workers) + 1], ["AlertAgent", *workers], "the chosen agents' lanes come first")

        patient = deteriorate(self, admin)
        conversation = wait(self.driver, lambda d: show_cfp_of(d, patient),
                            "the diagram shows AlertAgent's cfp about the patient, a care worker's answer and the accepted proposal")
        detail = text(self.driver, "#message-detail pre")
        self.assertIn("(cfp", detail)
        self.assertIn(":sender", detail)
        self.assertIn(conversation, text(self.driver, '#message-detail dd[data-term="conversation-id"]'))
        self.assertIn("AlertAgent", [lane for lane in self.driver.execute_script(
            "return [...document.querySelectorAll('#sequence g.lane')].map(l => l.dataset.agent)")])
        accepted = f'#sequence g.arrow[data-performative="accept-proposal"][data-conversation="{conversation}"]'
        click(self.driver, accepted)
        wait(self.driver, lambda d: "(accept-proposal" in text(d, "#message-detail pre"), "a click on an arrow shows its message")
        self.driver.set_window_size(1600, 1200)  # every lane in sight beside the message
        self.driver.execute_script("window.scrollTo(0, 0)")
        ActionChains(self.driver).move_to_element(self.driver.find_element(By.TAG_NAME, "h1")).perform()  # no arrow under the pointer
        clear_toasts(self.driver)
        shot(self.driver, "sniffer")

        before = len(self.driver.execute_script(SHOWN_ARROWS))
        choose(self.driver, "#filter-conversation", conversation)
        shown = wait(self.driver, lambda d: (lambda arrows: arrows if len(arrows) < before else None)(d.execute_script(SHOWN_ARROWS)),
                     "the other conversations' arrows are hidden")
        self.assertEqual({a["conversation"] for a in shown}, {conversation}, "only the chosen conversation's arrows remain")
        self.assertEqual({"cfp", "accept-proposal"} - {a["performative"] for a in shown}, set())
        rows = sorted({float(a["transform"].split(",")[1].rstrip(")")) for a in shown})
        self.assertEqual(rows, [rows[0] + 30 * i for i in range(len(rows))], "its rows follow one another, 30 px apart, no gaps")
        self.assertEqual(rows[0], FIRST_ROW, "from the first row on")

        click(self.driver, "#export")
        path = os.path.join(self.driver.downloads, "conversation.acl")
        wait(self.driver, lambda d: os.path.exists(path) and not glob.glob(os.path.join(d.downloads, "*.crdownload")), "the conversation is downloaded")
        with open(path) as file:
            messages = re.split(r"\n\n(?=\()", file.read().strip())
        self.assertTrue(any(m.startswith("(cfp") for m in messages), "the export has the cfp in the FIPA string form")
        self.assertTrue(all(f":conversation-id {conversation}" in m for m in messages), "and only the shown conversation")
        self.assertEqual(len(messages), len({a["message"] for a in shown}), "every message shown is exported, once")

        click(self.driver, "#sniff-start")
        wait(self.driver, lambda d: text(d, "#sniff-state") == "Not sniffing.", "the sniffer stops")
        click(self.driver, "#clear")  # after stopping: nothing new can arrive meanwhile
        wait(self.driver, lambda d: not css(d, "#sequence g.arrow"), "Clear empties the diagram")

    def test_the_introspector_shows_alert_agents_goal_and_reasoning_live(self):
        admin = token("admin")
        login(self.driver, "admin")
        self.driver.get(BASE + "/#/agents/monitoring/AlertAgent")
        goal = '#goals tr[data-goal="AlertGoal"]'
        wait(self.driver, lambda d: css(d, goal), "AlertAgent's goal shows")
        self.assertEqual(text(self.driver, "#mind-title"), "AlertAgent")
        self.assertIn("maintain", text(self.driver, goal + " .kind"))
        self.assertTrue(text(self.driver, goal + " .status"), "with its status")
        self.assertTrue(css(self.driver, goal + " .plans li[data-plan]"), "and its plans")
        beliefs = self.driver.execute_script(
            "return [...document.querySelectorAll('#beliefs tr[data-belief]')].map(r => [r.dataset.belief, r.querySelector('.value').textContent, r.querySelector('.type').textContent])")
        self.assertTrue(beliefs and all(name and value and kind for name, value, kind in beliefs), "its beliefs show with values and types")
        row = '#agent-list tr[data-agent="AlertAgent"]'
        self.assertEqual(text(self.driver, row + " .state"), "active")
        self.assertTrue(css(self.driver, row + ".selected a[aria-current=page]"), "the agent is marked in the list")
        self.assertTrue(css(self.driver, '#agent-list tr[data-agent="CareWorker-nurse1"]'), "the platform's other agents are listed")
        received = counter(self.driver, row + " .received")
        wait(self.driver, lambda d: "live" in text(d, "#mind-live"), "the agent's events stream in")

        deteriorate(self, admin)
        goal_event = ("return [...document.querySelectorAll('#agent-events li[data-event=\"goal\"]')]"
                      ".some(e => e.textContent.includes('AlertGoal') && e.textContent.includes('→'))")
        wait(self.driver, lambda d: d.execute_script(goal_event), "the event log shows AlertGoal's status change")
        wait(self.driver, lambda d: css(d, "#reasoning li.reasoning-record"), "the reasoning history shows a cycle")
        chosen = "return [...document.querySelectorAll('#reasoning li.reasoning-record .chosen')].some(c => c.textContent.includes('AlertGoal'))"
        wait(self.driver, lambda d: d.execute_script(chosen), "a cycle in which deliberation chose AlertGoal")
        self.assertIn("Strategies", text(self.driver, "#reasoning li.reasoning-record details summary"))
        wait(self.driver, lambda d: counter(d, row + " .received") > received, "the list's counters move on without reloading")
        wait(self.driver, lambda d: css(d, '#agent-events li[data-event="message"]'), "the messages it handled are logged")
        clear_toasts(self.driver)
        shot(self.driver, "agents")
        self.driver.execute_script("document.getElementById('reasoning-title').scrollIntoView()")
        shot(self.driver, "agents-reasoning")

    def test_a_message_sent_to_echo_is_answered_and_one_to_nobody_fails(self):
        self.expected_console = ("400 (Bad Request)",)
        login(self.driver, "admin")
        self.driver.get(BASE + "/#/agents/monitoring/echo")
        wait(self.driver, lambda d: css(d, "#send-form") and css(d, '#services li[data-service="echo"]'), "echo's mind and the form show")
        self.assertEqual(self.driver.execute_script("return document.querySelector('#send-form [name=receiver]').value"), "echo",
                         "the receiver is the agent shown")
        choose(self.driver, '#send-form [name="performative"]', "request")
        fill(self.driver, {'#send-form [name="content"]': "(ping 42)"})
        click(self.driver, "#send-submit")
        reply = '#send-replies .acl-message[data-performative="inform"] pre'
        wait(self.driver, lambda d: "(ping 42)" in text(d, reply), "echo's inform comes back with the content")
        self.assertIn("(request", text(self.driver, '#send-replies .acl-message[data-performative="request"] pre'), "the sent message shows too")
        self.assertIn(":sender (agent-identifier :name echo@", text(self.driver, reply))

        fill(self.driver, {'#send-form [name="receiver"]': "nobody-here", '#send-form [name="content"]': "hello"})
        press(self.driver, '#send-form [name="receiver"]', Keys.ESCAPE)
        click(self.driver, "#send-submit")
        failure = '#send-replies .acl-message[data-performative="failure"] pre'
        wait(self.driver, lambda d: "nobody-here" in text(d, failure), "the platform answers a failure for an unknown agent")

        fill(self.driver, {'#send-form [name="receiver"]': "no one"})
        # Typing into the receiver may open its list of agent names; a click would close it, not send.
        press(self.driver, '#send-form [name="receiver"]', Keys.ESCAPE)
        click(self.driver, "#send-submit")
        objection = wait(self.driver, lambda d: text(d, "#send-form .form-error"), "the server's objection shows in the form")
        self.assertIn("receiver", objection, "the objection names the field")
        self.assertFalse(css(self.driver, "#send-replies .acl-message"), "no answers are left from before")

    def test_the_pages_fit_a_phone(self):
        self.use_phone()
        login(self.driver, "admin")
        self.driver.get(BASE + "/#/sniffer/monitoring")
        click(self.driver, "#sniff-all")
        click(self.driver, "#sniff-start")
        wait(self.driver, lambda d: "Sniffing all agents" in text(d, "#sniff-state"), "the sniffer listens to every agent")
        status, answer = call("POST", "/api/v1/platforms/monitoring/messages", {"receiver": "echo", "performative": "request", "content": "(ping phone)"},
                              token("admin"))
        self.assertEqual((status, answer.get("timedOut")), (200, False), answer)
        wait(self.driver, lambda d: css(d, '#sequence g.arrow[data-sender="inspector:dashboard"][data-receiver="echo"]')
             and css(d, '#sequence g.arrow[data-sender="echo"][data-receiver="inspector:dashboard"]'), "the request and echo's answer are drawn")
        self.assertTrue(no_sideways_scroll(self.driver), "the page fits the phone's width")
        self.assertTrue(self.driver.execute_script(
            "const f = document.querySelector('.sequence-frame'); return f.scrollWidth > f.clientWidth"), "the diagram scrolls in its own frame")
        self.driver.execute_script("document.querySelector('.diagram-card').scrollIntoView()")
        shot(self.driver, "sniffer-phone")
        self.driver.get(BASE + "/#/agents/monitoring/AlertAgent")
        wait(self.driver, lambda d: css(d, '#goals tr[data-goal="AlertGoal"]'), "the Introspector shows")
        self.assertTrue(no_sideways_scroll(self.driver), "the Introspector fits the phone's width")
