"""`skillhost ui` in headless Chromium, driven by Selenium: what a person does on the page, step by step.

Run by Tests/SkillWebTests/BrowserTests.swift with the page's URL (its one-time token), the skillhost binary
and the environment its `list` needs; the scripted model (ReplayServer) answers the turns in the order below.
One line per check ("ok: ..."); "FAILED: ..." and exit 1 at the first that fails. Screenshots of each tab
go to --shots.
"""

import argparse
import http.server
import json
import os
import subprocess
import threading
import time

from peer_checks import check
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from ui_page import ChatPage, chromium

parser = argparse.ArgumentParser()
parser.add_argument("--url", required=True)
parser.add_argument("--skillhost", required=True)
parser.add_argument("--env", required=True, help="JSON object: the environment of `skillhost list`")
parser.add_argument("--shots", required=True)
parser.add_argument("--archive", required=True, help="an instruction skill's .zip to upload")
arguments = parser.parse_args()
origin = arguments.url.split("/?")[0]
os.makedirs(arguments.shots, exist_ok=True)


browser = chromium
driver = browser()
chat_page = ChatPage(driver, 30)
wait = chat_page.wait
card_state, send, idle = chat_page.card_state, chat_page.send, chat_page.idle


def card(call_id):
    return driver.find_element(By.CSS_SELECTOR, f'.card[data-call="{call_id}"]')


def assistant_says(text):
    wait.until(lambda d: any(text in m.text for m in d.find_elements(By.CSS_SELECTOR, ".msg.assistant")),
               f"no assistant message with {text!r}")


def listed(skill_id):
    env = dict(os.environ)
    env.update(json.loads(arguments.env))
    output = subprocess.run([arguments.skillhost, "list", "--json"], env=env, capture_output=True, text=True, check=True)
    for plugin in json.loads(output.stdout)["plugins"]:
        for skill in plugin.get("skills", []):
            if skill["id"] == skill_id:
                return skill["enabled"]
    return None


try:
    # The printed URL: its token becomes the cookie and the address bar shows / without it.
    driver.get(arguments.url)
    wait.until(lambda d: d.find_element(By.ID, "message"))
    check(driver.current_url == origin + "/", f"the token URL leads to the page at / ({driver.current_url})")
    check("token" not in driver.current_url, "the token is gone from the address bar")
    check(driver.switch_to.active_element is not None, "the page has focus")

    # A read skill: the card appears, runs and reaches done with the result's summary; the answer streams in.
    send("echo hello")
    done = card_state("call_echo1", "done")
    check("fixture.echo" in done.text, f"the done card names the skill: {done.text!r}")
    check("text: hello" in done.text, f"the card shows the arguments: {done.text!r}")
    assistant_says("Echoed hello.")
    idle()
    driver.save_screenshot(os.path.join(arguments.shots, "chat.png"))

    # A write skill asks: Allow on the card runs it.
    send("note buy milk")
    asking = card_state("call_note1", "approval")
    check("allow this write skill" in asking.text, f"the card asks: {asking.text!r}")
    asking.find_element(By.XPATH, ".//button[text()='Allow']").click()
    done = card_state("call_note1", "done")
    check("s)" in done.text, f"the approved call ran and took its time: {done.text!r}")
    assistant_says("Noted.")
    idle()

    # A failing skill shows its error and Retry; Retry makes a new call (it fails again, as this skill always does).
    send("fail please")
    failed = card_state("call_fail1", "failed")
    check("the fixture always fails" in failed.text, f"the failed card shows the error: {failed.text!r}")
    assistant_says("It failed.")
    idle()
    failed.find_element(By.XPATH, ".//button[text()='Retry']").click()
    retried = card_state("call_fail1-retry1", "failed")
    check("the fixture always fails" in retried.text, "the retry ran the skill again")
    idle()

    # Deny, then Retry and Allow: the retry runs the write skill.
    send("note again")
    asking = card_state("call_note2", "approval")
    asking.find_element(By.XPATH, ".//button[text()='Deny']").click()
    denied = card_state("call_note2", "failed")
    check("denied" in denied.text, f"a denied call fails with the reason: {denied.text!r}")
    assistant_says("Not noted.")
    idle()
    denied.find_element(By.XPATH, ".//button[text()='Retry']").click()
    asking = card_state("call_note2-retry2", "approval")
    asking.find_element(By.XPATH, ".//button[text()='Allow']").click()
    card_state("call_note2-retry2", "done")
    idle()
    check(True, "Retry after Deny ran the write skill once allowed")

    # The Skills tab: the toggle writes the registry the CLI reads.
    driver.find_element(By.ID, "tab-skills").click()
    toggle = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, 'input[data-id="fixture.echo"]'))
    check(toggle.is_selected(), "fixture.echo shows enabled")
    toggle.click()
    wait.until(lambda d: "disabled fixture.echo" in d.find_element(By.ID, "skills-status").text, "no word of the change")
    check(listed("fixture.echo") is False, "skillhost list shows fixture.echo disabled after the toggle")
    toggle = driver.find_element(By.CSS_SELECTOR, 'input[data-id="fixture.echo"]')
    toggle.click()
    wait.until(lambda d: "enabled fixture.echo" in d.find_element(By.ID, "skills-status").text, "no word of the change back")
    check(listed("fixture.echo") is True, "skillhost list shows fixture.echo enabled again")
    # Adding an instruction skill by uploading its archive, as `skillhost add` does.
    driver.find_element(By.ID, "skill-archive").send_keys(arguments.archive)
    driver.find_element(By.ID, "add-skill-button").click()
    wait.until(lambda d: "added instruction skill zip-notes" in d.find_element(By.ID, "skills-status").text,
               "the uploaded skill was not added")
    check(driver.find_elements(By.CSS_SELECTOR, 'input[data-id="zip-notes"]'), "the added instruction skill is listed with its switch")
    listing = json.loads(subprocess.run([arguments.skillhost, "list", "--json"], env={**os.environ, **json.loads(arguments.env)},
                                        capture_output=True, text=True, check=True).stdout)
    check(any(p["id"] == "zip-notes" and p.get("kind") == "instructions" for p in listing["plugins"]), "skillhost list shows it")
    driver.find_element(By.ID, "skill-archive").send_keys(arguments.archive)
    driver.find_element(By.ID, "add-skill-button").click()
    wait.until(lambda d: "already installed" in d.find_element(By.ID, "skills-status").text, "a second upload was not refused")
    driver.find_element(By.XPATH, "//button[@aria-label='Details of fixture.note']").click()
    detail = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '#skill-detail table[aria-label="Parameters of fixture.note"]'))
    check("text" in detail.text and "yes" in detail.text, f"the schema table lists the required parameter: {detail.text!r}")
    summary = driver.find_element(By.ID, "skill-detail").text
    check("Permission" in summary and "write" in summary, "the detail shows the permission")
    check("p50" in summary and "p95" in summary, f"the detail shows p50 and p95: {summary!r}")
    driver.save_screenshot(os.path.join(arguments.shots, "skills.png"))

    # The Trace tab: this session's calls on a timeline.
    driver.find_element(By.ID, "tab-trace").click()
    trace = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '#trace-list table'))
    check(trace.text.count("fixture.") >= 6, f"the trace lists the session's calls: {trace.text!r}")
    debug = wait.until(lambda d: "Agent state" in d.find_element(By.ID, "debug-state").text and d.find_element(By.ID, "debug-state"))
    check("Agent state\nfinished" in debug.text and "7 registered" in debug.text, f"the debug state shows the agent state and skills: {debug.text!r}")
    driver.save_screenshot(os.path.join(arguments.shots, "trace.png"))

    # Keyboard: arrow keys move between the tabs.
    driver.find_element(By.ID, "tab-trace").send_keys(Keys.ARROW_RIGHT)
    check(driver.find_element(By.ID, "tab-chat").get_attribute("aria-selected") == "true", "ArrowRight wraps to the Chat tab")

    # Sessions: a new chat, then the old session from the sidebar, read and continued.
    old = driver.execute_script("return state.session")
    driver.find_element(By.ID, "new-chat").click()
    wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#log .msg"), "the new chat is not empty")
    driver.find_element(By.CSS_SELECTOR, f'#session-list button.open[data-session="{old}"]').click()
    wait.until(lambda d: any("echo hello" in m.text for m in d.find_elements(By.CSS_SELECTOR, ".msg.user")), "the old session did not open")
    check(card("call_echo1").get_attribute("data-state") == "done", "the stored call shows as done")
    check(card("call_fail1").get_attribute("data-state") == "failed", "the stored failed call shows as failed")
    send("and once more")
    assistant_says("Once more.")
    idle()
    check(driver.execute_script("return state.session") == old, "the message continued the old session")

    # An instruction skill's script: its activation and run are cards; the files it wrote are links.
    send("make a report")
    card_state("call_act1", "done")
    asking = card_state("call_run1", "approval")
    asking.find_element(By.XPATH, ".//button[text()='Allow']").click()
    done = card_state("call_run1", "done")
    link = done.find_element(By.LINK_TEXT, "report.txt")
    fetched = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0]).then(async r => done([r.status, r.headers.get('content-disposition'), await r.text()]));",
        link.get_attribute("href"))
    check(fetched[0] == 200 and "REPORT HEADER v1" in fetched[2], f"the link serves the file the script wrote: {fetched}")
    check(fetched[1].startswith("attachment"), f"as a download, never a page of this origin: {fetched[1]}")
    session = driver.execute_script("return state.session")
    escaped = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/files?session=' + arguments[0] + '&path=..%2F..%2Fhistory.sqlite3').then(async r => done([r.status, await r.text()]));",
        session)
    check(escaped[0] == 403 and "leaves the session's workspace" in escaped[1], f"a path out of the workspace is refused: {escaped}")
    assistant_says("The report is ready.")
    idle()

    # Stop: a running skill (it waits for cancellation) shows its live timer; Stop cancels the turn.
    send("wait a while")
    running = card_state("call_slow1", "running")
    first = running.text
    time.sleep(0.5)
    check(running.text != first and "running" in running.text, f"the running card's timer moves: {first!r} → {running.text!r}")
    driver.find_element(By.ID, "stop").click()
    stopped = card_state("call_slow1", "failed")
    check("cancel" in stopped.text, f"the stopped call says it was cancelled: {stopped.text!r}")
    wait.until(lambda d: any("Stopped." in m.text for m in d.find_elements(By.CSS_SELECTOR, ".msg.note")), "no word that the turn stopped")
    idle()

    # Settings: checked by the command line's rules, written to the registry's chat object `chat` reads.
    driver.find_element(By.ID, "tab-settings").click()
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, 'select[data-skill="fixture.note"]'))
    context = driver.find_element(By.ID, "set-context")
    context.clear()
    context.send_keys("99999999999")
    driver.find_element(By.ID, "save-settings").click()
    wait.until(lambda d: "chat.context_tokens needs a whole number from 512 to 10000000" in d.find_element(By.ID, "settings-status").text,
               "no one-line error for a context budget out of range")
    check("\n" not in driver.find_element(By.ID, "settings-status").text, "the error is one line")
    context.clear()
    context.send_keys("4096")
    steps = driver.find_element(By.ID, "set-steps")
    steps.clear()
    steps.send_keys("3")
    driver.find_element(By.ID, "save-settings").click()
    wait.until(lambda d: d.find_element(By.ID, "settings-status").text.startswith("Saved"), "the settings were not saved")
    registry_file = json.loads(arguments.env)["SKILLHOST_REGISTRY"]
    with open(registry_file) as handle:
        registry = json.load(handle)
    check(registry.get("chat") == {"context_tokens": 4096, "max_steps": 3}, f"the registry's chat object holds them: {registry.get('chat')}")
    check("3 rounds per turn" in driver.find_element(By.ID, "settings-effective").text, "the new limit is in effect")
    choice = driver.find_element(By.CSS_SELECTOR, 'select[data-skill="fixture.note"]')
    check(choice.get_attribute("value") == "ask", "fixture.note asks by default")
    from selenium.webdriver.support.ui import Select
    Select(choice).select_by_value("allow")
    wait.until(lambda d: "now allow" in d.find_element(By.ID, "settings-status").text, "the approval was not saved")
    with open(registry_file) as handle:
        registry = json.load(handle)
    check(registry["plugins"]["fixture"]["skills"]["fixture.note"]["approval"] == "allow", "the registry holds the approval")
    driver.save_screenshot(os.path.join(arguments.shots, "settings.png"))
    driver.find_element(By.ID, "tab-chat").click()

    # 360 px wide: nothing scrolls sideways.
    driver.set_window_size(360, 800)
    time.sleep(0.3)
    width = driver.execute_script("return document.documentElement.scrollWidth")
    check(width <= 360, f"the page fits 360 px ({width})")
    driver.save_screenshot(os.path.join(arguments.shots, "chat-360.png"))
    driver.set_window_size(1280, 900)

    # Another browser, without the cookie: refused.
    stranger = browser()
    try:
        stranger.get(origin + "/")
        body = stranger.find_element(By.TAG_NAME, "body").text
        check("no session cookie" in body, f"a browser without the token is refused: {body!r}")
        stranger.get(arguments.url)
        body = stranger.find_element(By.TAG_NAME, "body").text
        check("already used" in body, f"the spent token does not sign a second browser in: {body!r}")
    finally:
        stranger.quit()

    # A page of another site (another origin) posts a form and scripts a request: both refused.
    page = ("<!doctype html><form id=f method=post enctype=text/plain action='%s/api/chat'>"
            "<input name='{\"text\":\"forged\",\"x\":\"' value='\"}'><button id=go>go</button></form>") % origin

    class Attacker(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page.encode())

        def log_message(self, *_):
            pass

    attacker = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
    threading.Thread(target=attacker.serve_forever, daemon=True).start()
    try:
        driver.get(f"http://localhost:{attacker.server_address[1]}/")
        driver.find_element(By.ID, "go").click()
        wait.until(lambda d: d.current_url.startswith(origin), "the form did not post")
        body = driver.find_element(By.TAG_NAME, "body").text
        check("is another site" in body, f"the cross-site form post is refused: {body!r}")
        driver.get(f"http://localhost:{attacker.server_address[1]}/")
        outcome = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0] + '/api/chat', {method: 'POST', credentials: 'include', headers: {'Content-Type': 'application/json'},"
            " body: JSON.stringify({text: 'forged'})}).then(r => done('status ' + r.status)).catch(e => done('blocked: ' + e));",
            origin)
        check(outcome.startswith("blocked"), f"a script of another origin cannot post: {outcome}")
    finally:
        attacker.shutdown()

    driver.get(origin + "/")
    wait.until(lambda d: d.find_element(By.ID, "message"))
    sessions = driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; fetch('/api/sessions').then(r => r.json()).then(done);")
    titles = [s["title"] for s in sessions["sessions"]]
    check(not any("forged" in t for t in titles), f"nothing forged reached the history: {titles}")
    logs = driver.get_log("browser")
    violations = [entry["message"] for entry in logs if "Content Security Policy" in entry["message"]]
    check(not violations, f"the page broke none of its own Content-Security-Policy: {violations}")

    # Delete: after a confirmation the session leaves the sidebar and the history `skillhost history` reads.
    env = dict(os.environ)
    env.update(json.loads(arguments.env))
    trace = subprocess.run([arguments.skillhost, "trace", "--json"], env=env, capture_output=True, text=True, check=True).stdout
    check("retry of call_fail1" in trace and "retry of call_note2" in trace, "skillhost trace records the retries as such")
    old_id = sessions["sessions"][0]["id"]
    stored = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '.card[data-call="call_run1"] a'), "the stored script card has no links")
    check([a.text for a in stored] == ["report.txt", "summary.json", "words.csv"], "the stored script card links the files it wrote")
    check(not driver.find_elements(By.CSS_SELECTOR, '.card[data-call="call_act1"] a'), "an activation's file list is not made into links")
    check(driver.find_element(By.ID, "status").text == "", "the reloaded page shows no error")
    wait.until(lambda d: d.find_element(By.XPATH, "//button[@aria-label='Delete session echo hello']")).click()
    driver.switch_to.alert.accept()
    wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#session-list li"), "the deleted session is still listed")
    wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#log .msg"), "the deleted session is still shown")
    history = subprocess.run([arguments.skillhost, "history", "--json"], env=env, capture_output=True, text=True, check=True)
    check(old_id not in history.stdout, f"skillhost history no longer has the session: {history.stdout[:200]!r}")
    print("all checks passed", flush=True)
finally:
    driver.quit()
