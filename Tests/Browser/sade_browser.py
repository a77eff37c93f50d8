"""Helpers for the dashboard's browser tests: a headless Chromium driven by Selenium
against a running `sade serve --demo` (its URL in SADE_URL), screenshots into
SADE_SCREENSHOTS, and direct API calls for setting the scene."""

import datetime
import json
import os
import shutil
import ssl
import tempfile
import unittest
import urllib.error
import urllib.request
import uuid

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

BASE = os.environ.get("SADE_URL", "http://127.0.0.1:8080").rstrip("/")
# Over HTTPS with a private CA: the API calls trust the CA's file, the browser the
# server certificate's public key (base64 of its SHA-256), as Chromium allows.
CA_FILE = os.environ.get("SADE_CA_FILE")
CERTIFICATE_SPKI = os.environ.get("SADE_CERTIFICATE_SPKI")
TLS_CONTEXT = ssl.create_default_context(cafile=CA_FILE) if CA_FILE else None
SCREENSHOTS = os.environ.get("SADE_SCREENSHOTS", os.path.join(tempfile.gettempdir(), "sade-screenshots"))
PASSWORD = "sade-demo"
# How long a condition may take to hold: a guard against hangs, not a speed check (an
# issue's Contract Net round took over 60 s on a loaded two-core run).
WAIT = float(os.environ.get("SADE_BROWSER_WAIT", "180"))


def browser(width=1280, height=900, autoplay=True):
    """A fresh headless Chromium (own profile, downloads into `driver.downloads`,
    desktop notifications allowed). With `autoplay=False` sound needs a user gesture
    first, as in a real browser."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    arguments = ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={width},{height}"]
    if autoplay:
        arguments.append("--autoplay-policy=no-user-gesture-required")
    if CERTIFICATE_SPKI:
        arguments.append(f"--ignore-certificate-errors-spki-list={CERTIFICATE_SPKI}")
    for argument in arguments:
        options.add_argument(argument)
    if width < 500:  # headless windows are at least 500 px wide: emulate the phone's screen
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2}})
    downloads = tempfile.mkdtemp(prefix="sade-downloads-")
    options.add_experimental_option("prefs", {
        "download.default_directory": downloads,
        "download.prompt_for_download": False,
        "profile.default_content_setting_values.notifications": 1,
    })
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    driver.downloads = downloads
    return driver


def wait(driver, condition, message, timeout=WAIT):
    """Waits until `condition(driver)` is truthy and returns it (no fixed sleeps)."""
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(condition, message)


def css(driver, selector):
    return driver.find_elements(By.CSS_SELECTOR, selector)


def login(driver, username, password=PASSWORD):
    """Logs in through the login page and waits for the first page after it."""
    driver.get(BASE + "/#/login")
    wait(driver, lambda d: css(d, "#login-form"), "the login page shows")
    driver.find_element(By.NAME, "username").send_keys(username)
    driver.find_element(By.NAME, "password").send_keys(password)
    driver.find_element(By.ID, "login-submit").click()
    wait(driver, lambda d: not d.current_url.endswith("#/login") and css(d, "#top-bar:not([hidden])"), f"{username} is logged in")


def wait_live(driver):
    """Waits until the page's live stream is open: the server has subscribed it, so what
    happens from now on reaches the page (posted earlier, it would have been missed)."""
    wait(driver, lambda d: css(d, '#live-state[data-state="open"]'), "the live stream is open")


def shot(driver, name):
    """Saves a screenshot as SCREENSHOTS/name.png."""
    os.makedirs(SCREENSHOTS, exist_ok=True)
    driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}.png"))


def console_errors(driver):
    """The browser console's errors (uncaught exceptions, failed scripts)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def call(method, path, body=None, token=None):
    """An API request; returns (status, decoded JSON or text)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30, context=TLS_CONTEXT) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def token(username, password=PASSWORD):
    status, answer = call("POST", "/api/v1/auth/login", {"username": username, "password": password})
    assert status == 200, answer
    return answer["token"]


def device_token(patient, admin_token):
    """Issues a device token for `patient` (as a monitor would get one)."""
    status, answer = call("POST", f"/api/v1/patients/{patient}/devices", {"label": "browser-test"}, admin_token)
    assert status == 201 or status == 200, answer
    return answer["secret"]


def text(driver, selector):
    """The text of the first element matching `selector` now ('' if none): read in the
    page, so a redraw between finding and reading cannot make it stale."""
    return driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", selector)


def attr(driver, selector, name):
    """An attribute of the first element matching `selector` now ('' if none)."""
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? (e.getAttribute(arguments[1]) || '') : '';", selector, name)


def click(driver, selector, message=None):
    """Clicks the first element matching `selector`, trying again if a redraw replaced it."""
    return press(driver, selector, None, message)


def press(driver, selector, keys, message=None):
    """Sends `keys` to (or, with None, clicks) the first element matching `selector`,
    trying again if a redraw replaced it between finding and acting."""
    from selenium.common.exceptions import (
        ElementNotInteractableException, NoSuchElementException, StaleElementReferenceException)

    def attempt(d):
        try:
            element = d.find_element(By.CSS_SELECTOR, selector)
            element.click() if keys is None else element.send_keys(keys)
            return True
        except (StaleElementReferenceException, NoSuchElementException, ElementNotInteractableException):
            return False
    return wait(driver, attempt, message or f"{selector} can be used")


class DashboardTestCase(unittest.TestCase):
    """A test with a fresh desktop-sized browser in `self.driver`; it fails when the
    browser console shows an error, except ones containing a substring of
    `self.expected_console` (errors a test provokes on purpose)."""

    def setUp(self):
        self.driver = browser()
        self.expected_console = ()

    def tearDown(self):
        errors = [e for e in console_errors(self.driver) if not any(x in e for x in self.expected_console)]
        quit_browser(self.driver)
        self.assertEqual(errors, [], "the browser console shows no errors")

    def use_phone(self, width=390, height=844):
        """Swaps the browser for one of a phone's size."""
        quit_browser(self.driver)
        self.driver = browser(width, height)


def quit_browser(driver):
    """Closes the browser and removes its downloads folder."""
    driver.quit()
    shutil.rmtree(driver.downloads, ignore_errors=True)


def now():
    """The time now as the API writes it (UTC, milliseconds)."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def unique(prefix):
    """A name no other test run has used: `prefix-1a2b3c4d`."""
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def choose(driver, selector, value):
    """Chooses the option with `value` in the select matching `selector`."""
    from selenium.webdriver.support.ui import Select
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'{selector} option[value="{value}"]'), f"{selector} offers {value}")
    Select(driver.find_element(By.CSS_SELECTOR, selector)).select_by_value(value)


def fill(driver, fields):
    """Types into the fields named by the keys' CSS selectors (clearing them first)."""
    for selector, value in fields.items():
        element = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, selector), f"{selector} shows")[0]
        element.clear()
        element.send_keys(value)


def no_sideways_scroll(driver):
    """Whether the page fits the window's width."""
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def wearable_user(username, password=PASSWORD, name=None):
    """Registers a thesis user through the thesis's API and returns its login token."""
    body = {"username": username, "password": password}
    if name:
        body["name"] = name
    status, answer = call("POST", "/Api/User/register", body)
    assert status == 201, answer
    status, answer = call("POST", "/Api/User/login", {"username": username, "password": password})
    assert status == 200, answer
    return answer["token"]
