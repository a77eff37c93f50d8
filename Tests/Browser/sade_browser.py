"""Helpers for the dashboard's browser tests: a headless Chromium driven by Selenium
against a running `sade serve --demo` (its URL in SADE_URL), screenshots into
SADE_SCREENSHOTS, and direct API calls for setting the scene."""

import json
import os
import tempfile
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

BASE = os.environ.get("SADE_URL", "http://127.0.0.1:8080").rstrip("/")
SCREENSHOTS = os.environ.get("SADE_SCREENSHOTS", os.path.join(tempfile.gettempdir(), "sade-screenshots"))
PASSWORD = "sade-demo"
WAIT = float(os.environ.get("SADE_BROWSER_WAIT", "60"))


def browser(width=1280, height=900):
    """A fresh headless Chromium (own profile, downloads into `driver.downloads`,
    desktop notifications allowed)."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}", "--autoplay-policy=no-user-gesture-required"):
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
        with urllib.request.urlopen(request, timeout=30) as response:
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
