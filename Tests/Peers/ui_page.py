"""What the browser tests of `skillhost ui` share (ui_browser.py, ui_browser_sources.py): headless Chromium
from Debian driven by Selenium, and the chat's steps — send a message, wait for a card's state, wait for the
turn to end."""

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.support.ui import WebDriverWait


def chromium(width=1280, height=900):
    """Headless Chromium at this window size, its console kept (the tests look for CSP violations)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", "--no-first-run", "--disable-extensions",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class ChatPage:
    """The page's chat in `driver`, waiting up to `seconds` for each step."""

    def __init__(self, driver, seconds):
        self.driver = driver
        # The page re-renders lists and details as events arrive: an element found a moment ago may be
        # replaced before its text is read. That is a reason to look again, not a failure.
        self.wait = WebDriverWait(driver, seconds, poll_frequency=0.1,
                                  ignored_exceptions=[StaleElementReferenceException])

    def card_state(self, call_id, state):
        """The card of `call_id` once it is in `state`."""
        def ready(_):
            found = self.driver.find_elements(By.CSS_SELECTOR, f'.card[data-call="{call_id}"]')
            return found[0] if found and found[0].get_attribute("data-state") == state else False
        return self.wait.until(ready, f"card {call_id} never reached {state}")

    def send(self, text):
        box = self.driver.find_element(By.ID, "message")
        box.send_keys(text)
        box.send_keys(Keys.ENTER)

    def idle(self):
        self.wait.until(lambda d: d.find_element(By.ID, "send").is_enabled(), "the turn never ended")
