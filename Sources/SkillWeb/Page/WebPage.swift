/// The page `skillhost ui` serves, embedded in the binary: plain HTML, CSS and JavaScript, no framework, no
/// request to any other server (the Content-Security-Policy forbids it anyway), no inline script or style.
enum WebPage {
    /// A file of the page: its media type and bytes.
    struct Asset {
        var type: String
        var body: [UInt8]
    }

    /// The file at `path`, if it is one of the page's.
    static func asset(_ path: String) -> Asset? {
        switch path {
        case "/", "/index.html": Asset(type: "text/html; charset=utf-8", body: Array(html.utf8))
        case "/app.js": Asset(type: "text/javascript; charset=utf-8", body: Array(script.utf8))
        case "/app.css": Asset(type: "text/css; charset=utf-8", body: Array(style.utf8))
        case "/favicon.svg": Asset(type: "image/svg+xml", body: Array(icon.utf8))
        default: nil
        }
    }

    static let icon = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f5fbf"/><path d="M4 8h8M8 4v8" stroke="#fff" stroke-width="2"/></svg>"##

    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>SkillHost</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml">
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <h1>SkillHost</h1>
          <nav aria-label="Sections">
            <div role="tablist" aria-label="Sections" id="tabs">
              <button role="tab" id="tab-chat" aria-controls="panel-chat" aria-selected="true">Chat</button>
              <button role="tab" id="tab-skills" aria-controls="panel-skills" aria-selected="false" tabindex="-1">Skills</button>
              <button role="tab" id="tab-settings" aria-controls="panel-settings" aria-selected="false" tabindex="-1">Settings</button>
              <button role="tab" id="tab-trace" aria-controls="panel-trace" aria-selected="false" tabindex="-1">Trace</button>
            </div>
          </nav>
          <span id="model" class="model" aria-label="Model"></span>
        </header>
        <div class="layout">
          <aside id="sessions" aria-labelledby="sessions-title">
            <h2 id="sessions-title">Sessions</h2>
            <button type="button" id="new-chat">New chat</button>
            <ul id="session-list" aria-label="Stored sessions"></ul>
          </aside>
          <main id="main" tabindex="-1">
            <section id="panel-chat" role="tabpanel" aria-labelledby="tab-chat">
              <div id="log" role="log" aria-live="polite" aria-label="Conversation"></div>
              <form id="composer" aria-label="Message">
                <label for="message">Message</label>
                <textarea id="message" rows="2" placeholder="Ask, e.g. what time is it in Tokyo?" required></textarea>
                <div class="buttons">
                  <button type="submit" id="send">Send</button>
                  <button type="button" id="stop" disabled>Stop</button>
                </div>
              </form>
              <p id="status" role="status" aria-live="polite"></p>
            </section>
            <section id="panel-skills" role="tabpanel" aria-labelledby="tab-skills" hidden>
              <h2>Skills</h2>
              <form id="add-skill" class="add-skill">
                <label for="skill-archive">Add an instruction skill (.zip or .skill)</label>
                <input type="file" id="skill-archive" accept=".zip,.skill">
                <button type="submit" id="add-skill-button">Add</button>
              </form>
              <p id="skills-status" role="status"></p>
              <div id="skills-list"></div>
              <div id="skill-detail" aria-live="polite"></div>
            </section>
            <section id="panel-settings" role="tabpanel" aria-labelledby="tab-settings" hidden>
              <h2>Settings</h2>
              <p>Saved in the registry's <code>chat</code> object (<span id="settings-file"></span>), which
                 <code>skillhost chat</code> reads too; its flags and environment variables come first.</p>
              <form id="settings-form" class="settings" novalidate>
                <label for="set-provider">Provider</label>
                <select id="set-provider"><option value="">(from the environment)</option></select>
                <label for="set-base-url">Base URL</label>
                <input id="set-base-url" type="url" placeholder="http://localhost:11434/v1" autocomplete="off">
                <label for="set-model">Model</label>
                <input id="set-model" type="text" placeholder="llama3.1" autocomplete="off">
                <label for="set-context">Context budget (tokens)</label>
                <input id="set-context" type="number" min="512" max="10000000" placeholder="8192">
                <label for="set-steps">Model rounds per turn</label>
                <input id="set-steps" type="number" min="0" max="100" placeholder="8">
                <div class="buttons"><button type="submit" id="save-settings">Save</button></div>
              </form>
              <p id="settings-status" role="status" aria-live="polite"></p>
              <p id="settings-effective"></p>
              <h3>Approval</h3>
              <p>Whether a skill asks before it runs (ask), runs (allow) or is refused (deny).</p>
              <div id="approvals"></div>
            </section>
            <section id="panel-trace" role="tabpanel" aria-labelledby="tab-trace" hidden>
              <h2>Trace</h2>
              <p>The recorded calls of the open session, oldest first.</p>
              <div id="trace-list"></div>
              <h3>Debug</h3>
              <p>What <code>skillhost debug</code> shows, for this session.</p>
              <dl id="debug-state"></dl>
            </section>
          </main>
        </div>
        </body>
        </html>
        """#
}
