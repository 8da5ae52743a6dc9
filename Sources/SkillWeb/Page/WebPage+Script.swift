extension WebPage {
    /// The page's script (`/app.js`): the chat part here, the other panels in ``panelsScript``.
    /// Text from the model, skills or files is only ever set as text (`textContent`), never as markup.
    static let script = chatScript + "\n" + panelsScript + "\n" + startScript

    /// Helpers, tabs, the conversation (events from `/api/events`) and its cards.
    static let chatScript = #"""
        "use strict";
        const $ = (id) => document.getElementById(id);
        const el = (tag, props = {}, ...children) => {
          const node = document.createElement(tag);
          for (const [key, value] of Object.entries(props)) {
            if (key === "text") node.textContent = value;
            else if (key === "class") node.className = value;
            else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
            else node.setAttribute(key, value);
          }
          for (const child of children) if (child) node.append(child);
          return node;
        };
        const state = { session: null, running: false, bubble: null, cards: new Map(), approvals: new Map() };

        async function api(method, path, body) {
          const options = { method, headers: {} };
          if (body !== undefined) { options.headers["Content-Type"] = "application/json"; options.body = JSON.stringify(body); }
          const response = await fetch(path, options);
          const text = await response.text();
          let value = {};
          try { value = text ? JSON.parse(text) : {}; } catch { value = { error: text.trim() }; }
          if (!response.ok) throw new Error(value.error || (response.status + " " + response.statusText));
          return value;
        }
        function say(text) { $("status").textContent = text; }

        // Tabs: arrow keys move between them, as the ARIA tabs pattern says.
        const tabs = ["chat", "skills", "settings", "trace"];
        function showTab(name, focus) {
          for (const tab of tabs) {
            const button = $("tab-" + tab), selected = tab === name;
            button.setAttribute("aria-selected", String(selected));
            button.tabIndex = selected ? 0 : -1;
            $("panel-" + tab).hidden = !selected;
          }
          if (focus) $("tab-" + name).focus();
          if (name === "skills") loadSkills();
          if (name === "trace") loadTrace();
          if (name === "settings") loadSettings();
        }
        for (const tab of tabs) {
          $("tab-" + tab).addEventListener("click", () => showTab(tab, false));
          $("tab-" + tab).addEventListener("keydown", (event) => {
            const at = tabs.indexOf(tab);
            if (event.key === "ArrowRight") showTab(tabs[(at + 1) % tabs.length], true);
            else if (event.key === "ArrowLeft") showTab(tabs[(at + tabs.length - 1) % tabs.length], true);
            else return;
            event.preventDefault();
          });
        }

        // The conversation.
        function addMessage(role, text) {
          const node = el("div", { class: "msg " + role, text });
          $("log").append(node);
          node.scrollIntoView({ block: "end" });
          return node;
        }
        function overview(args) {
          if (args === null || typeof args !== "object") return String(args ?? "");
          return Object.entries(args).map(([key, value]) => key + ": " + (typeof value === "string" ? value : JSON.stringify(value))).join(", ");
        }
        function seconds(value) { return (value < 10 ? value.toFixed(2) : value.toFixed(1)) + " s"; }

        function card(id, name, args) {
          let entry = state.cards.get(id);
          if (entry) return entry;
          const icon = el("span", { class: "icon", "aria-hidden": "true" });
          const label = el("span", { class: "name", text: name });
          const argsNode = el("div", { class: "args", text: overview(args) });
          const text = el("div", { class: "text" });
          const actions = el("div", { class: "actions" });
          const body = el("div", { class: "body" }, label, argsNode, text, actions);
          const node = el("div", { class: "card", role: "group", "aria-label": "Skill call " + name, "data-call": id }, icon, body);
          $("log").append(node);
          entry = { id, name, args, node, text, actions, label, started: null, skill: null };
          state.cards.set(id, entry);
          setCard(entry, "pending", "pending");
          return entry;
        }
        // The files a skill's script wrote (run_skill_script's result lists them): links that download them.
        function fileLinks(entry, result, session) {
          const files = (result && Array.isArray(result.files) ? result.files : [])
            .filter((file) => file && typeof file.path === "string" && file.path);
          if (!files.length || !session || (entry.skill || entry.name) !== "run_skill_script") return;
          const list = el("ul", { class: "files", "aria-label": "Files the script wrote" });
          for (const file of files) {
            const href = "/api/files?session=" + encodeURIComponent(session) + "&path=" + encodeURIComponent(file.path);
            list.append(el("li", {}, el("a", { href, download: file.path.split("/").pop(), text: file.path }),
              document.createTextNode(" (" + file.size + " bytes)")));
          }
          entry.actions.replaceChildren(list);
        }
        function setCard(entry, kind, text) {
          entry.node.dataset.state = kind;
          entry.text.textContent = text;
          entry.node.setAttribute("aria-label", "Skill call " + entry.name + ": " + text);
        }
        setInterval(() => {
          for (const entry of state.cards.values()) {
            if (entry.node.dataset.state === "running" && entry.started !== null)
              entry.text.textContent = "running " + seconds((performance.now() - entry.started) / 1000);
          }
        }, 100);

        function handle(event) {
          if (event.session && state.session && event.session !== state.session && event.event !== "session") return;
          switch (event.event) {
            case "session": state.session = event.id; loadSessions(); break;
            case "turnStarted": state.session = event.session; setRunning(true); break;
            case "state": say(event.state === "finished" ? "" : event.state + "…"); break;
            case "token":
              if (!state.bubble) state.bubble = addMessage("assistant", "");
              state.bubble.textContent += event.text;
              break;
            case "messageCompleted":
              if (state.bubble && !state.bubble.textContent && event.content) state.bubble.textContent = event.content;
              else if (!state.bubble && event.content) addMessage("assistant", event.content);
              if (state.bubble && !state.bubble.textContent) state.bubble.remove();
              state.bubble = null;
              for (const call of event.tool_calls || []) {
                let args = call.arguments;
                try { args = JSON.parse(call.arguments); } catch {}
                card(call.id, call.name, args);
              }
              break;
            case "skillStarted": {
              const entry = card(event.call_id, event.skill || event.tool, event.arguments);
              entry.skill = event.skill;
              entry.label.textContent = event.skill || event.tool;
              entry.started = performance.now();
              entry.actions.replaceChildren();
              setCard(entry, "running", "running 0.00 s");
              break;
            }
            case "skillSucceeded": {
              const entry = card(event.call_id, event.skill || event.tool, event.arguments);
              entry.actions.replaceChildren();
              setCard(entry, "done", event.summary + "  (" + seconds(event.seconds) + ")");
              fileLinks(entry, event.result, event.session || state.session);
              break;
            }
            case "skillFailed": {
              const entry = card(event.call_id, event.skill || event.tool, event.arguments);
              setCard(entry, "failed", event.error.message + "  (" + seconds(event.seconds) + ")");
              entry.actions.replaceChildren();
              if (event.skill) entry.actions.append(el("button", { type: "button", class: "secondary", text: "Retry",
                "aria-label": "Retry " + event.skill, onclick: () => retry(event.call_id) }));
              break;
            }
            case "approval": {
              const entry = [...state.cards.values()].reverse().find((c) => c.skill === event.skill && c.node.dataset.state === "running");
              const target = entry || card(event.id, event.skill, event.arguments);
              state.approvals.set(event.id, target);
              setCard(target, "approval", (event.note ? event.note + " — " : "") + "allow this " + event.permission + " skill to run?");
              const answer = (allow) => api("POST", "/api/approve", { id: event.id, allow }).catch((error) => say(error.message));
              const allow = el("button", { type: "button", text: "Allow", "aria-label": "Allow " + event.skill, onclick: () => answer(true) });
              target.actions.replaceChildren(allow,
                el("button", { type: "button", class: "secondary", text: "Deny", "aria-label": "Deny " + event.skill, onclick: () => answer(false) }));
              allow.focus();
              break;
            }
            case "approvalAnswered": {
              const target = state.approvals.get(event.id);
              state.approvals.delete(event.id);
              if (target && target.node.dataset.state === "approval") {
                target.actions.replaceChildren();
                target.started = performance.now();
                setCard(target, "running", event.allowed ? "running 0.00 s" : "denied");
              }
              break;
            }
            case "turnFailed": addMessage(event.error.kind === "cancelled" ? "note" : "error", event.error.kind === "cancelled" ? "Stopped." : event.error.message); break;
            case "notice": addMessage("note", event.text); break;
            case "turnEnded": setRunning(false); state.bubble = null; say(""); loadSessions(); break;
          }
        }
        function setRunning(running) {
          state.running = running;
          $("stop").disabled = !running;
          $("send").disabled = running;
        }
        async function retry(id) {
          try { await api("POST", "/api/retry", { call_id: id }); } catch (error) { say(error.message); }
        }
        $("composer").addEventListener("submit", async (event) => {
          event.preventDefault();
          const text = $("message").value.trim();
          if (!text || state.running) return;
          addMessage("user", text);
          $("message").value = "";
          setRunning(true);
          try { await api("POST", "/api/chat", { text }); } catch (error) { setRunning(false); addMessage("error", error.message); }
        });
        $("message").addEventListener("keydown", (event) => {
          if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); $("composer").requestSubmit(); }
        });
        $("stop").addEventListener("click", () => api("POST", "/api/stop").catch((error) => say(error.message)));

        // Showing a stored conversation: messages, and each call's card as it ended.
        function render(messages, calls) {
          $("log").replaceChildren();
          state.cards.clear();
          state.bubble = null;
          const byID = new Map(calls.map((call) => [call.call_id, call]));
          for (const message of messages) {
            if (message.role === "user") addMessage("user", message.content);
            else if (message.role === "assistant") {
              if (message.content) addMessage("assistant", message.content);
              for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
                const recorded = byID.get(call.id);
                let args = call.arguments;
                try { args = JSON.parse(call.arguments); } catch {}
                const entry = card(call.id, recorded ? recorded.skill : call.name, args);
                entry.skill = recorded ? recorded.skill : null;
                if (!recorded) continue;
                const took = recorded.duration_ms === null ? "" : "  (" + seconds(recorded.duration_ms / 1000) + ")";
                if (recorded.status === "succeeded") { setCard(entry, "done", (recorded.summary || "done") + took); fileLinks(entry, recorded.result, recorded.session); }
                else if (recorded.error) {
                  setCard(entry, "failed", recorded.error.message + took);
                }
                else setCard(entry, "failed", recorded.status);
              }
            }
          }
        }
        async function loadState() {
          const value = await api("GET", "/api/state");
          state.session = value.session;
          $("model").textContent = "model: " + value.model;
          render(value.messages, value.calls);
          setRunning(value.running);
        }

        """#

    /// Listening to the events and loading the page's state, last (everything it calls is defined by then).
    static let startScript = #"""
        // Events: reconnect (and reload the conversation) when the stream drops.
        function listen() {
          const source = new EventSource("/api/events");
          source.onmessage = (message) => { try { handle(JSON.parse(message.data)); } catch (error) { console.error(error); } };
          source.onerror = () => { source.close(); setTimeout(() => { loadState().catch(() => {}); listen(); }, 1000); };
        }
        loadState().catch((error) => say(error.message));
        loadSessions();
        listen();
        """#
}
