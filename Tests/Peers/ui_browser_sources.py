"""`skillhost ui` with an MCP server (mcp-server-time) and a workflow over its tool, in headless Chromium.

Run by Tests/SkillWebTests/BrowserSourcesTests.swift; the scripted model calls time.get_current_time, then
workflow.zones. Checks: both run from the web chat to "done"; the Skills tab shows the server running with
its tools and permissions, the workflow with its steps, the details (schemas, annotations, sandbox, trust pin,
p50/p95); switching a tool and then the server off there is what `skillhost list --json` shows, and back;
every control has a name and the keyboard reaches them in reading order; the Skills tab fits 360 px.
One line per check ("ok: ..."); "FAILED: ..." and exit 1 at the first that fails.
"""

import argparse
import json
import os
import subprocess
import time

from peer_checks import check
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from ui_page import ChatPage, chromium

parser = argparse.ArgumentParser()
parser.add_argument("--url", required=True)
parser.add_argument("--skillhost", required=True)
parser.add_argument("--env", required=True, help="JSON object: the environment of `skillhost list`")
parser.add_argument("--shots", required=True)
arguments = parser.parse_args()
os.makedirs(arguments.shots, exist_ok=True)

driver = chromium()
# Listing the MCP server starts it (confined) the first time: a little longer than a plugin.
chat_page = ChatPage(driver, 40)
wait = chat_page.wait
card_state, send, idle = chat_page.card_state, chat_page.send, chat_page.idle


def listing():
    env = dict(os.environ)
    env.update(json.loads(arguments.env))
    output = subprocess.run([arguments.skillhost, "list", "--json"], env=env, capture_output=True, text=True, check=True)
    return json.loads(output.stdout)["mcp_servers"][0]


def tool_enabled(tool_id):
    return next(t["enabled"] for t in listing()["tools"] if t["id"] == tool_id)


def toggle(item_id, word):
    box = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, f'input[data-id="{item_id}"]'))
    box.click()
    wait.until(lambda d: f"{word} {item_id}" in d.find_element(By.ID, "skills-status").text, f"no word that {item_id} is {word}")


def row_status(item_id):
    """The status a row shows (None while the list is being drawn again)."""
    try:
        box = driver.find_element(By.CSS_SELECTOR, f'input[data-id="{item_id}"]')
        return box.find_element(By.XPATH, "ancestor::div[contains(@class,'skill-row')]").find_element(By.CSS_SELECTOR, ".status").text
    except (StaleElementReferenceException, NoSuchElementException):
        return None


def accessible_name(element):
    """What a screen reader announces for a control: aria-label, a <label for>, an enclosing label, its text."""
    return driver.execute_script("""
        const e = arguments[0];
        if (e.getAttribute('aria-label')) return e.getAttribute('aria-label');
        if (e.getAttribute('aria-labelledby')) return document.getElementById(e.getAttribute('aria-labelledby'))?.textContent || '';
        if (e.id) { const l = document.querySelector('label[for="' + e.id + '"]'); if (l && l.textContent.trim()) return l.textContent; }
        const wrap = e.closest('label'); if (wrap && wrap.textContent.trim()) return wrap.textContent;
        return (e.textContent || e.value || e.getAttribute('title') || '').trim();
    """, element)


def unnamed_controls():
    controls = driver.find_elements(By.CSS_SELECTOR, "button, input, select, textarea, a[href], [role=tab]")
    return [c.get_attribute("outerHTML")[:120] for c in controls if c.is_displayed() and not accessible_name(c).strip()]


try:
    driver.get(arguments.url)
    wait.until(lambda d: d.find_element(By.ID, "message"))

    # The MCP server's tool from the web chat: a card that reaches done with the server's answer.
    send("what time is it in Tokyo?")
    done = card_state("call_time1", "done")
    check("time.get_current_time" in done.text, f"the card names the MCP tool: {done.text!r}")
    check("Asia/Tokyo" in done.text, f"the card shows the arguments or the result: {done.text!r}")
    wait.until(lambda d: any("evening in Tokyo" in m.text for m in d.find_elements(By.CSS_SELECTOR, ".msg.assistant")), "no answer")
    idle()

    # The workflow over it: one call, its two steps run through the same tool.
    send("both zones please")
    done = card_state("call_flow1", "done")
    check("workflow.zones" in done.text, f"the card names the workflow: {done.text!r}")
    wait.until(lambda d: any("Both zones read." in m.text for m in d.find_elements(By.CSS_SELECTOR, ".msg.assistant")), "no answer")
    idle()
    env = dict(os.environ)
    env.update(json.loads(arguments.env))
    trace = json.loads(subprocess.run([arguments.skillhost, "trace", "--json"], env=env, capture_output=True, text=True, check=True).stdout)
    calls = trace["calls"] if isinstance(trace, dict) else trace
    skills = [c["skill"] for c in calls]
    check(sorted(skills) == ["time.get_current_time", "workflow.zones"],
          f"skillhost trace records both calls under their skill ids: {skills}")

    # The Skills tab: the server, its state and transport, its tools with permission; the workflow's steps.
    driver.find_element(By.ID, "tab-skills").click()
    section = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, 'section[aria-label="MCP server time"]'))
    wait.until(lambda d: row_status("time") == "running", "the server does not show running")
    check(True, f"the server shows running: {section.text!r}")
    check("stdio:" in section.text and "mcp-server-time" in section.text, "the row shows the transport")
    check("time.get_current_time" in section.text and "time.convert_time" in section.text, "its tools are listed")
    check("· read" in section.text, f"with their permission: {section.text!r}")
    flow = driver.find_element(By.CSS_SELECTOR, 'section[aria-label="Workflow zones"]')
    steps = flow.find_elements(By.CSS_SELECTOR, "ol.steps li")
    check([s.text for s in steps] == ["tokyo → time.get_current_time", "paris → time.get_current_time (after tokyo)"],
          f"the workflow's steps: {[s.text for s in steps]}")

    # Details: the tool's input schema, annotations, sandbox, trust pin and its calls' p50/p95.
    driver.find_element(By.XPATH, "//button[@aria-label='Details of time.get_current_time']").click()
    table = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '#skill-detail table[aria-label="Parameters of time.get_current_time"]'))
    check("timezone" in table.text and "yes" in table.text, f"the input schema as a table: {table.text!r}")
    detail = driver.find_element(By.ID, "skill-detail").text
    for word in ["Server", "Transport", "Annotations", "Sandbox", "confined", "Trust pin", "p50", "p95"]:
        check(word in detail, f"the tool's detail shows {word}")
    check("1 (0 failed)" in detail, f"the detail counts the tool's calls: {detail!r}")
    check(driver.switch_to.active_element.tag_name == "h3", "focus moves to the detail's heading")
    box = driver.find_element(By.CSS_SELECTOR, 'input[data-id="time.convert_time"]')
    check(accessible_name(box) == "Enabled: MCP tool time.convert_time", f"a switch says what it switches: {accessible_name(box)!r}")
    driver.find_element(By.XPATH, "//button[@aria-label='Details of time']").click()
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#skill-detail h3").text == "time", "the server's detail did not open")
    detail = driver.find_element(By.ID, "skill-detail").text
    check("mcp server" in detail and "running" in detail and "not pinned" in detail, f"the server's detail: {detail!r}")
    driver.find_element(By.XPATH, "//button[@aria-label='Details of workflow.zones']").click()
    steps = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '#skill-detail table[aria-label="Steps of workflow.zones"]'))
    check("paris" in steps.text and "tokyo" in steps.text, f"the workflow's steps as a table: {steps.text!r}")
    check("1 (0 failed)" in driver.find_element(By.ID, "skill-detail").text, "the workflow's detail counts its run")
    driver.save_screenshot(os.path.join(arguments.shots, "skills-sources.png"))

    # A tool off, then on: the same locked registry write as `skillhost disable time.convert_time`.
    toggle("time.convert_time", "disabled")
    check(tool_enabled("time.convert_time") is False, "skillhost list shows time.convert_time disabled")
    toggle("time.convert_time", "enabled")
    check(tool_enabled("time.convert_time") is True, "skillhost list shows time.convert_time enabled again")
    # The server off: stopped here and in `skillhost list`; then on again.
    toggle("time", "disabled")
    server = listing()
    check(server["enabled"] is False and server["status"] == "disabled", f"skillhost list shows the server disabled: {server}")
    driver.find_element(By.ID, "tab-chat").click()
    driver.find_element(By.ID, "tab-skills").click()
    wait.until(lambda d: row_status("time") == "stopped", "the page does not show the server stopped")
    check(True, "the page shows the server stopped")
    toggle("time", "enabled")
    check(listing()["status"] == "ok", "skillhost list shows the server running again")

    # Accessibility: every control on every tab has a name; Tab walks the controls in reading order.
    for tab in ["chat", "skills", "settings", "trace"]:
        driver.find_element(By.ID, "tab-" + tab).click()
        time.sleep(0.3)
        unnamed = unnamed_controls()
        check(not unnamed, f"every control of the {tab} tab has a name: {unnamed}")
    driver.find_element(By.ID, "tab-chat").click()
    driver.get(driver.current_url)
    wait.until(lambda d: d.find_element(By.ID, "message"))
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    order = []
    for _ in range(40):
        active = driver.switch_to.active_element
        order.append(active)
        if active.get_attribute("id") == "message":
            break
        active.send_keys(Keys.TAB)
    names = [accessible_name(e).strip() for e in order]
    check(names[0] == "Skip to content", f"the first Tab reaches the skip link: {names[:3]}")
    check(order[-1].get_attribute("id") == "message", f"Tab reaches the message box: {names}")
    positions = [driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.top, r.left];", e) for e in order[1:]]
    tabs = [n for n in names if n in ("Chat", "Skills", "Settings", "Trace")]
    check(tabs == ["Chat"], f"one Tab stop for the tab list (arrow keys move inside it): {tabs}")
    check(all(not e.get_attribute("tabindex") or int(e.get_attribute("tabindex")) <= 0 for e in order),
          "no positive tabindex reorders the page")
    check(len(positions) > 2, f"the Tab order passes the controls before the message box: {names}")
    driver.switch_to.active_element.send_keys(Keys.SHIFT, Keys.TAB)
    check(driver.switch_to.active_element == order[-2], "Shift+Tab goes back the same way")

    # 360 px: the Skills tab with a server and a workflow does not scroll sideways.
    driver.find_element(By.ID, "tab-skills").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'section[aria-label="MCP server time"]'))
    driver.set_window_size(360, 800)
    time.sleep(0.3)
    width = driver.execute_script("return document.documentElement.scrollWidth")
    check(width <= 360, f"the Skills tab fits 360 px ({width})")
    driver.save_screenshot(os.path.join(arguments.shots, "skills-sources-360.png"))

    logs = driver.get_log("browser")
    violations = [entry["message"] for entry in logs if "Content Security Policy" in entry["message"]]
    check(not violations, f"no Content-Security-Policy violation: {violations}")
    print("all checks passed", flush=True)
finally:
    driver.quit()
