extension WebPage {
    /// The page's script: tabs, the chat (events from `/api/events`), the cards, sessions, skills and trace.
    /// Text from the model, skills or files is only ever set as text (`textContent`), never as markup.
    static let script = #"""
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
                if (recorded.status === "succeeded") setCard(entry, "done", (recorded.summary || "done") + took);
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

        // Sessions.
        async function loadSessions() {
          try {
            const value = await api("GET", "/api/sessions");
            const list = $("session-list");
            list.replaceChildren();
            for (const session of value.sessions) {
              const title = session.title || "(untitled)";
              const when = new Date(session.last_active).toLocaleString();
              const open = el("button", { type: "button", class: "open", "data-session": session.id,
                "aria-label": "Open session " + title + ", " + when, onclick: () => openSession(session.id) },
                el("span", { text: title }), el("small", { text: when + " · " + session.messages + " messages" }));
              if (session.id === state.session) open.setAttribute("aria-current", "true");
              const remove = el("button", { type: "button", class: "delete", text: "Delete", "aria-label": "Delete session " + title,
                onclick: () => deleteSession(session.id, title) });
              list.append(el("li", {}, open, remove));
            }
          } catch (error) { say(error.message); }
        }
        async function openSession(id) {
          try {
            await api("POST", "/api/open", { session: id });
            await loadState();
            await loadSessions();
            showTab("chat", false);
            $("message").focus();
          } catch (error) { say(error.message); }
        }
        async function deleteSession(id, title) {
          if (!window.confirm("Delete session " + title + "? Its messages and calls are removed from the history.")) return;
          try {
            await api("DELETE", "/api/sessions/" + encodeURIComponent(id));
            if (id === state.session) { await api("POST", "/api/open", { session: null }); await loadState(); }
            await loadSessions();
          } catch (error) { say(error.message); }
        }
        $("new-chat").addEventListener("click", () => openSession(null));

        // Skills.
        async function loadSkills() {
          try {
            const value = await api("GET", "/api/skills");
            const list = $("skills-list");
            list.replaceChildren();
            for (const plugin of value.plugins) {
              const section = el("section", { class: "plugin", "aria-label": plugin.id });
              section.append(el("h3", { text: (plugin.kind === "instructions" ? "Instruction skill " : "Plugin ") + plugin.id }));
              section.append(row(plugin, plugin.kind === "instructions" ? "instruction skill" : "plugin"));
              for (const skill of plugin.skills || []) section.append(row(skill, "skill"));
              list.append(section);
            }
            $("skills-status").textContent = "";
          } catch (error) { $("skills-status").textContent = error.message; }
        }
        $("add-skill").addEventListener("submit", async (event) => {
          event.preventDefault();
          const file = $("skill-archive").files[0];
          if (!file) { $("skills-status").textContent = "Pick a .zip or .skill archive first."; return; }
          try {
            const response = await fetch("/api/add-skill?name=" + encodeURIComponent(file.name),
              { method: "POST", headers: { "Content-Type": "application/zip" }, body: await file.arrayBuffer() });
            const value = await response.json().catch(() => ({ error: response.statusText }));
            if (!response.ok) throw new Error(value.error);
            $("skill-archive").value = "";
            await loadSkills();
            $("skills-status").textContent = "added instruction skill " + value.added;
          } catch (error) { $("skills-status").textContent = error.message; }
        });
        function row(item, kind) {
          const id = "toggle-" + item.id.replace(/[^A-Za-z0-9_-]/g, "_");
          const box = el("input", { type: "checkbox", id, "data-id": item.id });
          box.checked = item.enabled;
          box.addEventListener("change", async () => {
            box.disabled = true;
            try {
              const value = await api("POST", "/api/skills/" + encodeURIComponent(item.id), { enabled: box.checked });
              const notes = value.changes.map((change) => change.note).filter(Boolean);
              $("skills-status").textContent = (box.checked ? "enabled " : "disabled ") + item.id + (notes.length ? " — " + notes.join("; ") : "");
            } catch (error) { box.checked = !box.checked; $("skills-status").textContent = error.message; }
            box.disabled = false;
          });
          const status = item.status || (item.enabled ? "ok" : "disabled");
          return el("div", { class: "skill-row" },
            el("span", { class: "label" }, el("strong", { text: item.id }), document.createTextNode(" " + (item.title || item.description || "")),
              item.permission ? el("span", { text: " · " + item.permission }) : null),
            el("span", { class: "status " + status, text: status }),
            el("label", { class: "switch", for: id }, box, document.createTextNode("Enabled")),
            el("button", { type: "button", class: "secondary", text: "Details", "aria-label": "Details of " + item.id, onclick: () => showDetail(item.id) }));
        }
        async function showDetail(id) {
          const target = $("skill-detail");
          try {
            const value = await api("GET", "/api/skills/" + encodeURIComponent(id));
            const rows = [];
            const add = (name, text) => { if (text !== undefined && text !== null && text !== "") rows.push(el("tr", {}, el("th", { scope: "row", text: name }), el("td", { text: String(text) }))); };
            add("Description", value.description);
            add("Permission", value.permission && value.permission + (value.approval ? " (approval: " + value.approval + ")" : ""));
            add("Status", value.status);
            add("Version", value.version);
            add("Timeout", value.timeout !== undefined ? value.timeout + " s" : undefined);
            add("Sandbox", value.sandbox ? JSON.stringify(value.sandbox) : undefined);
            add("Grants", value.grants ? (value.grants.length ? value.grants.join(", ") : "none") : undefined);
            add("Trust pin", value.trust_pin === undefined ? undefined : (value.trust_pin || "not pinned"));
            if (value.stats) add("Calls", value.stats.calls + " (" + value.stats.failures + " failed), p50 " +
              (value.stats.p50_ms === null ? "—" : value.stats.p50_ms.toFixed(1) + " ms") + ", p95 " +
              (value.stats.p95_ms === null ? "—" : value.stats.p95_ms.toFixed(1) + " ms"));
            const parts = [el("h3", { text: id }), el("table", {}, el("tbody", {}, ...rows))];
            const properties = value.parameters && value.parameters.properties;
            if (properties) {
              const required = new Set(value.parameters.required || []);
              const head = el("tr", {}, ...["Parameter", "Type", "Required", "Description"].map((name) => el("th", { scope: "col", text: name })));
              const body = Object.entries(properties).map(([name, schema]) => el("tr", {},
                el("td", { text: name }), el("td", { text: [].concat(schema.type || (schema.enum ? "enum" : "any")).join(" | ") + (schema.enum ? ": " + schema.enum.join(", ") : "") + (schema.format ? " (" + schema.format + ")" : "") }),
                el("td", { text: required.has(name) ? "yes" : "no" }), el("td", { text: schema.description || "" })));
              parts.push(el("table", { "aria-label": "Parameters of " + id }, el("thead", {}, head), el("tbody", {}, ...body)));
            }
            if (value.recent_calls && value.recent_calls.length) {
              const durations = value.recent_calls.map((call) => call.duration_ms || 0).reverse();
              const most = Math.max(...durations, 1);
              const bars = el("div", { class: "bars", role: "img", "aria-label": "Latency of the last " + durations.length + " calls" });
              for (const value of durations) { const bar = el("span"); bar.style.height = Math.max(2, 48 * value / most) + "px"; bars.append(bar); }
              parts.push(el("h4", { text: "Recent calls" }), bars);
            }
            target.replaceChildren(...parts);
            parts[0].tabIndex = -1;
            parts[0].focus();
          } catch (error) { target.replaceChildren(el("p", { text: error.message })); }
        }

        // Settings: the registry's chat object and each skill's approval.
        async function loadSettings() {
          try {
            const value = await api("GET", "/api/settings");
            $("settings-file").textContent = value.file;
            const select = $("set-provider");
            select.replaceChildren(el("option", { value: "", text: "(from the environment)" }),
              ...value.providers.map((name) => el("option", { value: name, text: name })));
            select.value = value.saved.provider || "";
            $("set-base-url").value = value.saved.base_url || "";
            $("set-model").value = value.saved.model || "";
            $("set-context").value = value.saved.context_tokens ?? "";
            $("set-steps").value = value.saved.max_steps ?? "";
            $("settings-effective").textContent = "In effect: " + value.effective.model + ", " + value.effective.max_steps + " rounds per turn.";
            const rows = value.approvals.map((skill) => {
              const id = "approval-" + skill.id.replace(/[^A-Za-z0-9_-]/g, "_");
              const choice = el("select", { id, "data-skill": skill.id },
                ...["ask", "allow", "deny"].map((name) => el("option", { value: name, text: name })));
              choice.value = skill.approval;
              choice.addEventListener("change", async () => {
                try {
                  await api("POST", "/api/approval", { skill: skill.id, approval: choice.value });
                  say2("approval of " + skill.id + " is now " + choice.value, false);
                } catch (error) { say2(error.message, true); }
              });
              return el("tr", {}, el("td", {}, el("label", { for: id, text: skill.id })), el("td", { text: skill.permission }), el("td", {}, choice));
            });
            const head = el("tr", {}, ...["Skill", "Permission", "Approval"].map((name) => el("th", { scope: "col", text: name })));
            $("approvals").replaceChildren(el("table", { "aria-label": "Approval of each skill" }, el("thead", {}, head), el("tbody", {}, ...rows)));
          } catch (error) { say2(error.message, true); }
        }
        function say2(text, bad) {
          $("settings-status").textContent = text;
          $("settings-status").className = bad ? "error" : "";
        }
        $("settings-form").addEventListener("submit", async (event) => {
          event.preventDefault();
          const number = (id) => $(id).value === "" ? null : $(id).value;
          try {
            const value = await api("POST", "/api/settings", { provider: $("set-provider").value || null,
              base_url: $("set-base-url").value.trim() || null, model: $("set-model").value.trim() || null,
              context_tokens: number("set-context"), max_steps: number("set-steps") });
            say2("Saved. In effect: " + value.effective.model + ".", false);
            $("model").textContent = "model: " + value.effective.model;
            $("settings-effective").textContent = "In effect: " + value.effective.model + ", " + value.effective.max_steps + " rounds per turn.";
          } catch (error) { say2(error.message, true); }
        });

        // Trace: the open session's calls on a timeline.
        async function loadDebug() {
          try {
            const value = await api("GET", "/api/debug");
            const last = value.last_session;
            const enabled = value.skills.filter((skill) => skill.enabled).length;
            const items = [
              ["History", value.history.file + " (schema " + value.history.schema_version + ")"],
              ["Session", last ? last.session.id + " — " + (last.session.title || "(untitled)") : "none"],
              ["Agent state", last ? last.state : "—"],
              ["Context keys", last && last.context_keys.length ? last.context_keys.join(", ") : "(none)"],
              ["Skills", value.skills.length + " registered, " + enabled + " enabled"],
              ["Recorded calls", value.trace.length + " (newest " + (value.trace[0] ? value.trace[0].skill + ", " + value.trace[0].status : "—") + ")"],
            ];
            $("debug-state").replaceChildren(...items.flatMap(([name, text]) => [el("dt", { text: name }), el("dd", { text })]));
          } catch (error) { $("debug-state").replaceChildren(el("dd", { text: error.message })); }
        }
        async function loadTrace() {
          loadDebug();
          const target = $("trace-list");
          if (!state.session) { target.replaceChildren(el("p", { text: "No session is open yet." })); return; }
          try {
            const value = await api("GET", "/api/sessions/" + encodeURIComponent(state.session));
            const calls = value.calls.slice().reverse();
            if (!calls.length) { target.replaceChildren(el("p", { text: "No calls in this session." })); return; }
            const start = Math.min(...calls.map((call) => Date.parse(call.started)));
            const end = Math.max(...calls.map((call) => Date.parse(call.started) + (call.duration_ms || 0)), start + 1);
            const rows = calls.map((call) => {
              const bar = el("span", { class: "bar" + (call.status === "succeeded" ? "" : " failed") });
              bar.style.marginLeft = (100 * (Date.parse(call.started) - start) / (end - start)) + "%";
              bar.style.width = (100 * (call.duration_ms || 0) / (end - start)) + "%";
              return el("tr", {}, el("td", { text: new Date(call.started).toLocaleTimeString() }), el("td", { text: call.skill }),
                el("td", { text: call.status }), el("td", { text: call.duration_ms === null ? "—" : call.duration_ms.toFixed(1) + " ms" }),
                el("td", { class: "timeline" }, bar));
            });
            const head = el("tr", {}, ...["Start", "Skill", "Status", "Duration", "Timeline"].map((name) => el("th", { scope: "col", text: name })));
            target.replaceChildren(el("table", { "aria-label": "Calls of this session" }, el("thead", {}, head), el("tbody", {}, ...rows)));
          } catch (error) { target.replaceChildren(el("p", { text: error.message })); }
        }

        // Events: reconnect (and reload the conversation) when the stream drops.
        function listen() {
          const source = new EventSource("/api/events");
          source.onmessage = (message) => { try { handle(JSON.parse(message.data)); } catch (error) { console.error(error); } };
          source.onerror = () => { source.close(); setTimeout(() => { loadState().catch(() => {}); listen(); }, 1000); };
        }
        loadState().then(loadSessions).catch((error) => say(error.message));
        listen();
        """#
}
