/// What every page shares: the style sheet (light and dark), and the script behind the copy buttons.
///
/// Both are written into each page, so a page works opened from disk with no network and no other file.
enum PageStyle {
    static let css = """
        :root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --card: #f6f8fa;
          --accent: #0550ae; --bad: #a40e26; --bad-bg: #ffebe9; --good: #116329; --mark: #fff8c5; --screen: #ddf4ff; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9da7b3; --line: #3d444d; --card: #161b22;
            --accent: #79c0ff; --bad: #ff7b72; --bad-bg: #3c1618; --good: #56d364; --mark: #3b2e00; --screen: #0c2d6b; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.45 -apple-system, "Segoe UI", system-ui, sans-serif; }
        header, main, footer { max-width: 1100px; margin: 0 auto; padding: 0 20px; }
        header { padding-top: 20px; border-bottom: 1px solid var(--line); }
        h1 { font-size: 22px; margin: 0 0 6px; overflow-wrap: anywhere; }
        h2 { font-size: 18px; margin: 28px 0 10px; }
        h3 { font-size: 15px; margin: 0 0 6px; }
        p { margin: 4px 0 10px; overflow-wrap: anywhere; }
        a { color: var(--accent); }
        .muted { color: var(--muted); }
        code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; overflow-wrap: anywhere; }
        table { border-collapse: collapse; width: 100%; font-size: 13px; }
        caption { text-align: left; color: var(--muted); padding-bottom: 6px; }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: anywhere; }
        th { color: var(--muted); font-weight: 600; white-space: nowrap; }
        td.num, th.num { text-align: right; }
        tr.anomaly td { background: var(--bad-bg); }
        tr.boundary td { color: var(--muted); font-style: italic; border-bottom: 2px dashed var(--line); }
        .badge { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 12px; border: 1px solid currentColor; }
        .bad { color: var(--bad); }
        .good { color: var(--good); }
        mark { background: var(--mark); color: inherit; padding: 0 2px; }
        svg { width: 100%; height: auto; display: block; }
        svg .axis { stroke: var(--line); }
        svg .step { fill: var(--accent); }
        svg .step.anomaly { fill: var(--bad); }
        svg .boundary { stroke: var(--muted); stroke-dasharray: 4 3; }
        svg text { fill: var(--muted); font-size: 11px; }
        .compare { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 16px; }
        figure { margin: 0; }
        .screens { border: 1px solid var(--line); border-radius: 8px; padding: 12px; background: var(--card); }
        .tabs { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 8px; list-style: none; padding: 0; margin: 0; }
        .tab { border: 1px solid var(--line); border-radius: 6px; padding: 8px; background: var(--bg); }
        .tab.selected { border: 2px solid var(--accent); }
        .stack { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column-reverse; gap: 4px; }
        .stack li { background: var(--screen); border-radius: 4px; padding: 3px 6px; }
        .stack li.differs { outline: 2px solid var(--bad); }
        .modals { list-style: none; padding: 0; margin: 10px 0 0; }
        .modal { border: 1px dashed var(--accent); border-radius: 6px; padding: 8px; margin-top: 6px; background: var(--bg); }
        ol.links { padding-left: 28px; }
        ol.links li { margin: 4px 0; }
        button { font: inherit; font-size: 12px; color: var(--fg); background: var(--card); border: 1px solid var(--line);
          border-radius: 6px; padding: 2px 10px; cursor: pointer; margin-left: 8px; }
        button:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .bars rect, rect.cell { fill: var(--accent); }
        rect.cell + text { fill: var(--bg); font-size: 11px; }
        footer { color: var(--muted); font-size: 12px; padding: 24px 20px; }
        """

    /// What only the health page and the group pages' callout use, kept apart so that the replay pages (whose golden
    /// files pin their bytes) do not change with them.
    static let healthCSS = """
        svg.chart { max-width: 640px; width: 100%; }
        .chart .grid { stroke: var(--line); stroke-width: 1; }
        .chart .rate { fill: none; stroke: var(--accent); stroke-width: 2; }
        .chart .point { fill: var(--accent); }
        .chart .tick { fill: var(--muted); font-size: 11px; }
        .callout { border-left: 4px solid var(--bad); padding: 6px 10px; background: var(--card); }
        """

    /// Copy buttons: each copies the text of the `code` in its list item; one copies every link of its list.
    static let script = """
        document.addEventListener("click", function (event) {
          var button = event.target.closest("button[data-copy]");
          if (!button) return;
          var text;
          if (button.dataset.copy === "all") {
            var list = document.getElementById(button.getAttribute("aria-controls"));
            text = Array.prototype.map.call(list.querySelectorAll("code"), function (code) { return code.textContent; }).join("\\n");
          } else {
            text = button.closest("li").querySelector("code").textContent;
          }
          var done = function () { var label = button.textContent; button.textContent = "Copied"; setTimeout(function () { button.textContent = label; }, 1200); };
          if (navigator.clipboard && navigator.clipboard.writeText) {
            navigator.clipboard.writeText(text).then(done, function () {});
          } else {
            var area = document.createElement("textarea"); area.value = text; document.body.appendChild(area); area.select();
            try { document.execCommand("copy"); done(); } catch (e) {} document.body.removeChild(area);
          }
        });
        """
}
