extension WebPage {
    /// The sessions sidebar, the Skills, Settings and Trace panels.
    static let panelsScript = #"""
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
            // MCP servers used as skill sources: each server (running, stopped, broken) and its tools.
            for (const server of Array.isArray(value.mcp_servers) ? value.mcp_servers : []) {
              const section = el("section", { class: "plugin", "aria-label": "MCP server " + server.name });
              const transport = server.transport.type === "stdio" ? "stdio: " + [server.transport.command].concat(server.transport.args).join(" ") : "http: " + server.transport.url;
              section.append(el("h3", { text: "MCP server " + server.name }));
              section.append(row({ id: server.name, enabled: server.enabled, status: server.state, description: transport }, "MCP server"));
              if (server.error) section.append(el("p", { class: "error", text: server.error }));
              for (const tool of server.tools) section.append(row(tool, "MCP tool"));
              for (const bad of server.invalid) section.append(el("p", { class: "error", text: "tool \"" + bad.name + "\" " + bad.reason }));
              list.append(section);
            }
            // Installed workflows (workflow.NAME): their steps.
            for (const workflow of Array.isArray(value.workflows) ? value.workflows : []) {
              const section = el("section", { class: "plugin", "aria-label": "Workflow " + workflow.name });
              section.append(el("h3", { text: "Workflow " + workflow.name }));
              section.append(row({ id: workflow.id, status: workflow.error ? "broken" : "ok", description: workflow.description || "" }, "workflow"));
              if (workflow.error) section.append(el("p", { class: "error", text: workflow.error }));
              if (workflow.steps) section.append(el("ol", { class: "steps", "aria-label": "Steps of " + workflow.id },
                ...workflow.steps.map((step) => el("li", { text: step.id + " → " + step.skill + (step.needs.length ? " (after " + step.needs.join(", ") + ")" : "") + (step.if ? " if " + step.if : "") }))));
              list.append(section);
            }
            $("skills-status").textContent = value.error || "";
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
          const box = el("input", { type: "checkbox", id, "data-id": item.id, "aria-label": "Enabled: " + kind + " " + item.id });
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
          // A workflow has no switch of its own: it runs while its steps' skills do.
          const toggle = item.enabled === undefined ? el("span", { class: "switch" }) :
            el("label", { class: "switch", for: id }, box, document.createTextNode("Enabled"));
          return el("div", { class: "skill-row", "data-kind": kind },
            el("span", { class: "label" }, el("strong", { text: item.id }), document.createTextNode(" " + (item.title || item.description || "")),
              item.permission ? el("span", { text: " · " + item.permission }) : null),
            el("span", { class: "status " + status, text: status }),
            toggle,
            el("button", { type: "button", class: "secondary", text: "Details", "aria-label": "Details of " + item.id, onclick: () => showDetail(item.id) }));
        }
        async function showDetail(id) {
          const target = $("skill-detail");
          try {
            const value = await api("GET", "/api/skills/" + encodeURIComponent(id));
            const rows = [];
            const add = (name, text) => { if (text !== undefined && text !== null && text !== "") rows.push(el("tr", {}, el("th", { scope: "row", text: name }), el("td", { text: String(text) }))); };
            add("Kind", value.kind);
            add("Description", value.description);
            add("Server", value.server);
            add("Transport", value.transport ? (value.transport.type === "stdio" ? "stdio: " + [value.transport.command].concat(value.transport.args).join(" ") : "http: " + value.transport.url) : undefined);
            add("State", value.state && value.state + (value.error ? ": " + value.error : ""));
            add("Tools", Array.isArray(value.tools) ? (value.tools.map((tool) => tool.id + (tool.enabled ? "" : " (off)")).join(", ") || "none") : undefined);
            add("Annotations", value.annotations ? JSON.stringify(value.annotations) : undefined);
            add("Output schema", value.output_schema ? JSON.stringify(value.output_schema) : undefined);
            add("File", value.file);
            add("Permission", value.permission && value.permission + (value.approval ? " (approval: " + value.approval + ")" : ""));
            add("Status", value.state ? undefined : value.status);
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
            if (Array.isArray(value.steps)) {
              const head = el("tr", {}, ...["Step", "Skill", "After", "Condition"].map((name) => el("th", { scope: "col", text: name })));
              const body = value.steps.map((step) => el("tr", {}, el("td", { text: step.id }), el("td", { text: step.skill }),
                el("td", { text: step.needs.join(", ") || "—" }), el("td", { text: step.if || "—" })));
              parts.push(el("table", { "aria-label": "Steps of " + id }, el("thead", {}, head), el("tbody", {}, ...body)));
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

        """#
}
