import Mustache

/// The Mustache templates of the HTML pages: the replay page and the triage site's index and group pages, with
/// their shared partials.
///
/// Every value is escaped by `HTML_SCALARS`. Written unescaped (`{{{…}}}`) are only the
/// project's own style sheet and script, and the replay's step rows and timeline markers, which `HTMLRows` writes
/// with the same escaper: they are most of a long trail's page, and rendering them through the template engine's
/// dynamic lookups took 70 % of `report --html`'s time (11 ms a page of 250 steps).
enum PageTemplates {
    static let library: MustacheLibrary = {
        _ = ScalarHTMLContentType.registered
        var library = MustacheLibrary()
        let templates = [
            "head": head, "foot": foot, "screens": screens, "bars": bars, "frames": frames, "replay": replay, "report": report,
            "index": index, "group": group, "health": health,
        ]
        for (name, text) in templates {
            do {
                try library.register(contentType + text, named: name)
            } catch {
                preconditionFailure("the \(name) page template does not parse: \(error)")
            }
        }
        return library
    }()

    /// Renders the template `name` with `context`.
    static func render(_ name: String, _ context: [String: Any]) -> String {
        var context = context
        context["css"] = PageStyle.css
        context["script"] = PageStyle.script
        context["healthCSS"] = PageStyle.healthCSS
        return library.render(context, withTemplate: name) ?? ""
    }

    private static let contentType = "{{% CONTENT_TYPE: \(ScalarHTMLContentType.name)}}"

    static let head = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="crashtrail">
        <title>{{title}}</title>
        <style>{{{css}}}</style>
        </head>
        <body>

        """

    static let foot = """
        <footer role="contentinfo"><p>Made by crashtrail from {{source}}. Works offline; nothing is loaded from elsewhere.</p></footer>
        <script>{{{script}}}</script>
        </body>
        </html>

        """

    /// One set of screens: the tab bar with each stack, the modals over them, conditions and the pending destination.
    static let screens = """
        <figure class="screens" aria-labelledby="{{id}}-title">
        <h3 id="{{id}}-title">{{caption}}</h3>
        {{#hasTabs}}<ol class="tabs" aria-label="Tab bar">
        {{#tabs}}<li class="tab{{#selected}} selected{{/selected}}" aria-label="Tab {{index}}{{#selected}}, selected{{/selected}}">
        <p class="muted">tab {{index}}{{#selected}} <span class="badge">selected</span>{{/selected}}</p>
        <ol class="stack" aria-label="Stack of tab {{index}}, bottom to top">{{#screens}}<li class="mono{{#differs}} differs{{/differs}}">{{text}}</li>{{/screens}}</ol>
        </li>
        {{/tabs}}</ol>{{/hasTabs}}
        {{^hasTabs}}<ol class="stack" aria-label="Stack, bottom to top">{{#stack}}<li class="mono{{#differs}} differs{{/differs}}">{{text}}</li>{{/stack}}</ol>{{/hasTabs}}
        {{#hasModals}}<ol class="modals" aria-label="Modals over them, bottom to top">
        {{#modals}}<li class="modal"><p class="muted">modal {{index}}</p><ol class="stack">{{#screens}}<li class="mono{{#differs}} differs{{/differs}}">{{text}}</li>{{/screens}}</ol></li>
        {{/modals}}</ol>{{/hasModals}}
        <p class="muted">conditions: {{conditions}}</p>
        {{#hasPending}}<p>pending: <span class="mono">{{pending}}</span>, waiting for its flow</p>{{/hasPending}}
        </figure>

        """

    /// The crashed thread's frames, and the app's images that had no debug file.
    static let frames = """
        {{#hasFrames}}<section aria-labelledby="frames-title">
        <h2 id="frames-title">Crashed thread</h2>
        <table>
        <caption>The crashed thread's frames, top first: the function, and its file and line where a debug file gave them; a function inlined into the frame below shares its number.</caption>
        <thead><tr><th class="num" scope="col">#</th><th scope="col">image</th><th scope="col">function</th><th scope="col">file:line</th><th scope="col">offset</th></tr></thead>
        <tbody>
        {{#frames}}<tr><td class="num">{{number}}</td><td>{{image}}</td><td class="mono">{{function}}{{#inlined}} <span class="badge">inlined</span>{{/inlined}}</td><td class="mono">{{location}}</td><td class="mono">{{offset}}</td></tr>
        {{/frames}}</tbody>
        </table>
        {{#hasMissingImages}}<p class="bad">No debug file for {{missingImageWords}} of the app: {{#missingImages}}<span class="mono">{{name}}</span> <span class="muted mono">{{uuid}}</span>{{sep}}{{/missingImages}}. Until <span class="mono">crashtrail symbols add</span> stores the matching dSYM, frames there are named by their offset.</p>{{/hasMissingImages}}
        </section>
        {{/hasFrames}}
        """

    /// The page of a report without a replay: what it is, its crashed thread, and why there is no replay.
    static let report = """
        {{> head}}
        <header role="banner">
        <p><a href="{{up}}">{{upLabel}}</a></p>
        <h1>Report <span class="mono">{{report}}</span></h1>
        <p class="mono">{{exception}}</p>
        {{#hasReason}}<p>{{reason}}</p>{{/hasReason}}
        <p class="muted">{{app}} · {{os}} · {{device}} · {{time}} · {{format}}</p>
        </header>
        <main id="main">
        {{> frames}}{{^hasFrames}}<section aria-labelledby="frames-title"><h2 id="frames-title">Crashed thread</h2><p>The report names no frames.</p></section>{{/hasFrames}}
        <section aria-labelledby="trail-title">
        <h2 id="trail-title">Trail</h2>
        <p>{{noReplay}}</p>
        </section>
        </main>
        {{> foot}}
        """

    static let replay = """
        {{> head}}
        <header role="banner">
        {{#up}}<p><a href="{{up}}">{{upLabel}}</a></p>{{/up}}
        <h1>Replay of <span class="mono">{{report}}</span></h1>
        <p>{{app}} · session <span class="mono">{{session}}</span> started {{started}}</p>
        <p class="muted">manifest {{manifest}} · {{kept}} kept · {{dropped}} dropped before them</p>
        </header>
        <main id="main">
        <section aria-labelledby="path-title">
        <h2 id="path-title">Path</h2>
        <svg viewBox="0 0 {{width}} 90" role="img" aria-labelledby="timeline-title">
        <title id="timeline-title">Timeline of {{kept}} steps over {{span}}{{#hasAnomalies}}, {{anomalyCount}} with anomalies{{/hasAnomalies}}</title>
        <line class="axis" x1="20" y1="45" x2="{{axisEnd}}" y2="45"></line>
        {{#hasDropped}}<line class="boundary" x1="16" y1="15" x2="16" y2="75"></line><text x="20" y="14">{{dropped}} earlier steps dropped</text>{{/hasDropped}}
        {{{markers}}}
        <text x="20" y="86">{{startTime}}</text><text x="{{axisEnd}}" y="86" text-anchor="end">{{endTime}}</text>
        </svg>
        <table>
        <caption>Each kept step: its time since the session started, what it did, the screen and deep link it asked for, the depth of the top stack after it, and any anomaly.</caption>
        <thead><tr><th class="num" scope="col">#</th><th scope="col">time</th><th scope="col">op</th><th scope="col">destination</th><th scope="col">URL</th><th class="num" scope="col">depth</th><th scope="col">anomaly</th></tr></thead>
        <tbody>
        {{#hasDropped}}<tr class="boundary"><td colspan="7">{{dropped}} earlier steps were dropped by the recorder's bounds; the replay starts from the state they left</td></tr>{{/hasDropped}}
        {{{stepRows}}}
        {{^hasSteps}}<tr><td colspan="7">No steps: the final state is the trail's base.</td></tr>{{/hasSteps}}
        </tbody>
        </table>
        </section>
        <section aria-labelledby="screens-title">
        <h2 id="screens-title">Screens at the crash</h2>
        {{#verified}}<p class="good">Verified: the replayed final state equals the one the app recorded at the crash.</p>{{/verified}}
        {{#notVerified}}<p class="bad">Not verified: the replay differs from the state the app recorded. First difference: <mark>{{difference}}</mark></p>{{/notVerified}}
        {{#unrecorded}}<p class="muted">Not verified: the trail recorded no final state to compare with.</p>{{/unrecorded}}
        <div class="compare">
        {{#screenSets}}{{> screens}}{{/screenSets}}
        </div>
        </section>
        {{> frames}}<section aria-labelledby="links-title">
        <h2 id="links-title">Shortest links</h2>
        <p>{{linkCount}} links; {{#reproduces}}<span class="good">they reproduce the final screens</span>{{/reproduces}}{{^reproduces}}<span class="bad">they do not reproduce the final screens</span>{{/reproduces}}. Preconditions: {{preconditions}}.</p>
        {{#hasLinks}}<p><button type="button" data-copy="all" aria-controls="link-list">Copy all links</button></p>{{/hasLinks}}
        <ol class="links" id="link-list">
        {{#links}}<li><code>{{url}}</code>{{#redacted}} <span class="badge">redacted: a stand-in record</span>{{/redacted}}<button type="button" data-copy="one" aria-label="Copy link {{number}}">Copy</button></li>
        {{/links}}</ol>
        {{#unreproducible}}<p class="bad">Cannot be linked: <span class="mono">{{screen}}</span> at {{location}}: {{reason}}</p>{{/unreproducible}}
        </section>
        <section aria-labelledby="anomalies-title">
        <h2 id="anomalies-title">Anomalies</h2>
        {{#anomalies}}<p><span class="badge bad">{{kind}}</span> step {{step}}: {{detail}}</p>
        {{/anomalies}}{{^anomalies}}<p>None.</p>{{/anomalies}}
        </section>
        </main>
        {{> foot}}
        """

    static let index = """
        {{> head}}
        <header role="banner">
        <h1>Crashes{{#hasApp}} of {{app}}{{/hasApp}}</h1>
        {{#hasHealth}}<p><a href="health.html">Release health</a>: crash-free sessions per release and the riskiest transitions.</p>{{/hasHealth}}
        <p class="muted">{{reportWords}} in {{groupWords}}{{#hasSince}}, since {{since}}{{/hasSince}}. Each group is one crash: its signature, how often it happened by day, its versions, how many reports carry a trail, and the path that most often led to it.</p>
        </header>
        <main id="main">
        <table>
        <caption>Crash groups, most reports first</caption>
        <thead><tr><th scope="col">group</th><th class="num" scope="col">reports</th><th scope="col">per day</th><th scope="col">versions</th><th class="num" scope="col">with a trail</th><th scope="col">top path</th></tr></thead>
        <tbody>
        {{#groups}}<tr><td><a href="{{href}}"><span class="mono">{{id}}</span></a><br><span class="mono">{{signature}}</span></td><td class="num">{{count}}</td><td>{{> bars}}</td><td>{{versions}}</td><td class="num">{{withTrail}}%</td><td class="mono">{{topPath}}</td></tr>
        {{/groups}}
        {{^groups}}<tr><td colspan="6">No crashes in the store{{#hasApp}} for {{app}}{{/hasApp}}.</td></tr>{{/groups}}
        </tbody>
        </table>
        </main>
        {{> foot}}
        """

    static let group = """
        {{> head}}
        <header role="banner">
        <p><a href="{{up}}">All crash groups</a></p>
        <h1>Crash group <span class="mono">{{id}}</span></h1>
        <p class="mono">{{signature}}</p>
        {{#hasMerged}}<p class="muted">Merged into it by hand (<span class="mono">crashtrail group merge</span>): {{#merged}}<span class="mono">{{text}}</span>{{sep}}{{/merged}}</p>{{/hasMerged}}
        <p class="muted">{{countWords}}, {{withTrail}}% with a trail; first {{firstSeen}}, last {{lastSeen}}; versions {{versions}}</p>
        </header>
        <main id="main">
        <section aria-labelledby="days-title">
        <h2 id="days-title">Reports per day</h2>
        {{> bars}}
        </section>
        <section aria-labelledby="paths-title">
        <h2 id="paths-title">Paths that lead to this crash</h2>
        <p class="muted">The last {{last}} screens before the crash of each report with a trail, counted; where the paths meet, they converge on the crash screen at the right.</p>
        {{#hasOver}}<style>{{{healthCSS}}}</style><p class="callout">Most over-represented transition: <span class="mono">{{over.transition}}</span>, taken by {{over.crashShare}}% of these crashes and by {{over.sessionShare}}% of the sessions that did not crash ({{over.lift}}×).</p>{{/hasOver}}
        {{#hasInferredPaths}}<p class="muted">{{inferredPaths}} of these paths were inferred from the crash reporter's breadcrumbs, not recorded: the screens are right, values such as an item's ID are unknown.</p>{{/hasInferredPaths}}
        <svg viewBox="0 0 {{converge.width}} {{converge.height}}" role="img" aria-labelledby="converge-title">
        <title id="converge-title">The {{pathCount}} most frequent paths, one row each, aligned on the crash screen</title>
        {{#converge.cells}}<rect x="{{x}}" y="{{y}}" width="{{w}}" height="18" rx="3" fill-opacity="{{opacity}}" class="cell"></rect><text x="{{tx}}" y="{{ty}}">{{text}}</text>{{/converge.cells}}
        </svg>
        <table>
        <caption>Screen paths, most reports first</caption>
        <thead><tr><th scope="col">path (last screen is the crash screen)</th><th class="num" scope="col">reports</th><th class="num" scope="col">share</th></tr></thead>
        <tbody>
        {{#paths}}<tr><td class="mono">{{path}}{{#hasInferred}} <span class="muted">({{inferred}} inferred)</span>{{/hasInferred}}</td><td class="num">{{count}}</td><td class="num">{{share}}%</td></tr>
        {{/paths}}{{^paths}}<tr><td colspan="3">No report of this group carries a trail.</td></tr>{{/paths}}
        </tbody>
        </table>
        </section>
        <section aria-labelledby="reports-title">
        <h2 id="reports-title">Reports</h2>
        {{#hasMore}}<p class="muted">The newest {{listed}} of {{countWords}}; every report has its page, and <span class="mono">crashtrail list --group {{id}}</span> lists them all.</p>{{/hasMore}}
        <table>
        <thead><tr><th scope="col">report</th><th scope="col">time</th><th scope="col">version</th><th scope="col">format</th><th scope="col">trail</th></tr></thead>
        <tbody>
        {{#reports}}<tr><td><a href="{{href}}"><span class="mono">{{id}}</span></a></td><td>{{time}}</td><td>{{version}}</td><td>{{format}}</td><td>{{trail}}</td></tr>
        {{/reports}}
        </tbody>
        </table>
        </section>
        </main>
        {{> foot}}
        """

    /// The health page: crash-free sessions per release, and the riskiest transitions (SPEC section 20).
    static let health = """
        {{> head}}
        <style>{{{healthCSS}}}</style>
        <header role="banner">
        <p><a href="{{up}}">All crash groups</a></p>
        <h1>Release health</h1>
        <p class="muted">Crash-free sessions and users per release, from the sessions the apps' Sentry SDKs send; and the transitions between screens whose sessions crash most, from the trails the recorder sends for a sample of the sessions that did not crash and the trails of the crashes.</p>
        </header>
        <main id="main">
        <section aria-labelledby="releases-title">
        <h2 id="releases-title">Crash-free sessions per release</h2>
        {{#hasReleases}}
        <svg class="chart" viewBox="0 0 {{chart.width}} {{chart.height}}" role="img" aria-labelledby="chart-title">
        <title id="chart-title">{{chart.label}}</title>
        {{#chart.ticks}}<line x1="{{chart.left}}" x2="{{chart.right}}" y1="{{y}}" y2="{{y}}" class="grid"></line><text x="4" y="{{ty}}" class="tick">{{text}}</text>{{/chart.ticks}}
        <polyline points="{{chart.line}}" class="rate"></polyline>
        {{#chart.marks}}<circle cx="{{x}}" cy="{{y}}" r="4" class="point"><title>{{name}}: {{value}} crash-free</title></circle><text x="{{lx}}" y="{{ly}}" text-anchor="middle" class="tick">{{label}}</text>{{/chart.marks}}
        </svg>
        <table>
        <caption>Releases, oldest first</caption>
        <thead><tr><th scope="col">release</th><th class="num" scope="col">sessions</th><th class="num" scope="col">crash-free sessions</th><th class="num" scope="col">crash-free users</th><th class="num" scope="col">crashed</th><th class="num" scope="col">abnormal</th></tr></thead>
        <tbody>
        {{#releases}}<tr><td class="mono">{{name}}</td><td class="num">{{sessions}}</td><td class="num">{{crashFree}}</td><td class="num">{{crashFreeUsers}}</td><td class="num">{{crashed}}</td><td class="num">{{abnormal}}</td></tr>
        {{/releases}}
        </tbody>
        </table>
        {{/hasReleases}}
        {{^hasReleases}}<p>No sessions are counted yet: serve counts the session items of Sentry's SDKs when release health is on.</p>{{/hasReleases}}
        </section>
        <section aria-labelledby="risks-title">
        <h2 id="risks-title">Riskiest transitions{{#hasRiskRelease}} of <span class="mono">{{riskRelease}}</span>{{/hasRiskRelease}}</h2>
        {{#hasRisks}}
        <p class="muted">Each transition with at least {{minimumSessions}} sessions, the riskiest first by the low end of its 95 % interval; lift is its rate over the release's.{{#hasBaseline}} A regression rose beyond both intervals since <span class="mono">{{riskBaseline}}</span>.{{/hasBaseline}}</p>
        <table>
        <thead><tr><th scope="col">transition</th><th class="num" scope="col">sessions</th><th class="num" scope="col">crashed</th><th class="num" scope="col">crash rate</th><th class="num" scope="col">95 % interval</th><th class="num" scope="col">lift</th><th scope="col"></th></tr></thead>
        <tbody>
        {{#risks}}<tr><td class="mono">{{path}}</td><td class="num">{{sessions}}</td><td class="num">{{crashed}}</td><td class="num">{{rate}}</td><td class="num">{{interval}}</td><td class="num">{{lift}}</td><td>{{#regression}}<strong>regression</strong>{{/regression}}</td></tr>
        {{/risks}}
        </tbody>
        </table>
        {{/hasRisks}}
        {{^hasRisks}}<p>No transition has enough sessions to rank yet: the recorder sends the trails of a sample of the sessions that did not crash when the app sets a sample rate.</p>{{/hasRisks}}
        </section>
        </main>
        {{> foot}}
        """

    /// A small bar chart of counts per day.
    static let bars = """
        <svg class="bars" viewBox="0 0 {{bars.width}} 40" style="max-width: {{bars.width}}px" role="img" aria-label="{{bars.label}}">{{#bars.days}}<rect x="{{x}}" y="{{y}}" width="{{w}}" height="{{h}}"><title>{{day}}: {{count}}</title></rect>{{/bars.days}}</svg>
        """
}
