extension WebPage {
    /// The page's style: system fonts, colours with at least 4.5:1 contrast, a visible focus ring, one column
    /// below 720 px (the sessions above the chat), no motion when the system asks for less.
    static let style = #"""
        :root { --fg: #1a1a1a; --muted: #4a4a4a; --bg: #ffffff; --panel: #f3f4f6; --line: #c9ced6; --accent: #1f5fbf;
          --ok: #146c2e; --bad: #a4161a; --warn: #7a4b00; font-family: system-ui, sans-serif; color: var(--fg); background: var(--bg); }
        * { box-sizing: border-box; }
        body { margin: 0; }
        .skip { position: absolute; left: -999px; }
        .skip:focus { left: 8px; top: 8px; background: var(--bg); padding: 4px 8px; z-index: 2; }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        button { font: inherit; padding: 6px 12px; border: 1px solid var(--accent); border-radius: 6px; background: var(--accent); color: #fff; cursor: pointer; min-height: 36px; }
        button.secondary, [role=tab] { background: var(--bg); color: var(--accent); }
        button:disabled { background: #e5e7eb; color: #555; border-color: #9ca3af; cursor: not-allowed; }
        .top { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 8px 16px; border-bottom: 1px solid var(--line); }
        .top h1 { font-size: 1.2rem; margin: 0; }
        [role=tablist] { display: flex; gap: 4px; }
        [role=tab][aria-selected=true] { background: var(--accent); color: #fff; }
        .model { color: var(--muted); font-size: .9rem; margin-left: auto; }
        .layout { display: flex; min-height: calc(100vh - 56px); }
        aside { width: 260px; flex: none; border-right: 1px solid var(--line); padding: 12px; background: var(--panel); }
        aside h2 { font-size: 1rem; margin: 0 0 8px; }
        #session-list { list-style: none; padding: 0; margin: 8px 0 0; }
        #session-list li { display: flex; gap: 4px; align-items: stretch; margin-bottom: 4px; }
        #session-list li button.open { flex: 1; text-align: left; background: var(--bg); color: var(--fg); border-color: var(--line); overflow: hidden; }
        #session-list li button.open[aria-current=true] { border-color: var(--accent); border-width: 2px; }
        #session-list li button.delete { background: var(--bg); color: var(--bad); border-color: var(--bad); }
        #session-list small { display: block; color: var(--muted); }
        main { flex: 1; min-width: 0; padding: 12px 16px; }
        #log { display: flex; flex-direction: column; gap: 8px; margin-bottom: 12px; }
        .msg { max-width: 48rem; padding: 8px 12px; border-radius: 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
        .msg.user { align-self: flex-end; background: #e0ebff; }
        .msg.assistant { background: var(--panel); }
        .msg.note { color: var(--muted); font-style: italic; }
        .msg.error { color: var(--bad); border: 1px solid var(--bad); }
        .card { display: grid; grid-template-columns: 24px 1fr; gap: 4px 8px; max-width: 48rem; padding: 8px 12px; border: 1px solid var(--line); border-left-width: 4px; border-radius: 6px; }
        .card .icon { width: 18px; height: 18px; margin-top: 2px; }
        .card[data-state=pending] { border-left-color: #6b7280; }
        .card[data-state=running] { border-left-color: var(--warn); }
        .card[data-state=approval] { border-left-color: #6d28d9; }
        .card[data-state=done] { border-left-color: var(--ok); }
        .card[data-state=failed] { border-left-color: var(--bad); }
        .card[data-state=pending] .icon, .card[data-state=running] .icon { border: 3px solid #d1d5db; border-top-color: var(--accent); border-radius: 50%; animation: spin 1s linear infinite; }
        .card[data-state=approval] .icon::before { content: "?"; color: #6d28d9; font-weight: bold; }
        .card[data-state=done] .icon::before { content: "\2713"; color: var(--ok); font-weight: bold; }
        .card[data-state=failed] .icon::before { content: "\2717"; color: var(--bad); font-weight: bold; }
        .card .name { font-weight: 600; }
        .card .args { color: var(--muted); font-family: ui-monospace, monospace; font-size: .85rem; overflow-wrap: anywhere; }
        .card .text { overflow-wrap: anywhere; }
        .card[data-state=failed] .text { color: var(--bad); }
        .card .actions { display: flex; gap: 8px; margin-top: 4px; }
        .card .body { min-width: 0; }
        .card .files { margin: 4px 0 0; padding-left: 1.2em; }
        a { color: var(--accent); }
        @keyframes spin { to { transform: rotate(360deg); } }
        @media (prefers-reduced-motion: reduce) { .card .icon { animation: none !important; } }
        #composer { display: flex; flex-direction: column; gap: 6px; max-width: 48rem; }
        #composer label { font-weight: 600; }
        textarea { font: inherit; padding: 8px; border: 1px solid #6b7280; border-radius: 6px; width: 100%; }
        .buttons { display: flex; gap: 8px; }
        #status, #skills-status { color: var(--muted); min-height: 1.2em; }
        table { border-collapse: collapse; width: 100%; max-width: 56rem; margin: 8px 0; }
        th[scope=row] { white-space: nowrap; width: 1%; }
        th, td { text-align: left; border-bottom: 1px solid var(--line); padding: 4px 8px; vertical-align: top; overflow-wrap: anywhere; }
        .skill-row { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 6px 0; border-bottom: 1px solid var(--line); }
        .skill-row .label { flex: 1; min-width: 12rem; }
        .skill-row .status { font-size: .85rem; padding: 2px 6px; border-radius: 4px; background: var(--panel); }
        .status.ok, .status.running { color: var(--ok); } .status.disabled, .status.stopped { color: var(--muted); } .status.invalid, .status.broken, .status.denied { color: var(--bad); }
        .add-skill { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin-bottom: 8px; }
        .switch { display: inline-flex; align-items: center; gap: 6px; }
        .switch input { width: 20px; height: 20px; }
        .plugin { margin: 12px 0; }
        .plugin h3 { font-size: 1rem; margin: 0 0 4px; }
        .bars { display: flex; align-items: flex-end; gap: 2px; height: 48px; }
        .bars span { background: var(--accent); width: 8px; display: inline-block; }
        .timeline .bar { height: 10px; background: var(--accent); display: block; min-width: 2px; }
        .timeline .bar.failed { background: var(--bad); }
        .settings { display: grid; grid-template-columns: max-content minmax(0, 24rem); gap: 8px 12px; align-items: center; }
        .settings .buttons { grid-column: 2; }
        select, input[type=url], input[type=text], input[type=number] { font: inherit; padding: 6px; border: 1px solid #6b7280; border-radius: 6px; width: 100%; }
        #settings-status.error, .plugin p.error { color: var(--bad); }
        .plugin p.error { margin: .25rem 0; overflow-wrap: anywhere; }
        #debug-state { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 4px 12px; }
        #debug-state dt { font-weight: 600; }
        #debug-state dd { margin: 0; overflow-wrap: anywhere; }
        @media (max-width: 720px) {
          .settings { grid-template-columns: minmax(0, 1fr); }
          .settings .buttons { grid-column: 1; }
          .layout { flex-direction: column; }
          aside { width: auto; border-right: none; border-bottom: 1px solid var(--line); }
          .model { margin-left: 0; width: 100%; }
          main { padding: 8px; }
        }
        """#
}
