import CrashtrailService
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// Release health from Sentry's own Python SDK (`sentry-sdk` from PyPI): the `session` items it sends in application
/// mode and the `sessions` aggregates of request mode, counted by `crashtrail serve` (SPEC section 20).
@Suite("crashtrail serve: sessions from Sentry's Python SDK")
struct SentrySessionTests {
    /// Sends `count` application-mode sessions numbered from `first` (user `user-N`), cycling through a clean exit, a
    /// handled error, a crash by an unhandled event, a crash set by hand and an abnormal end; then, when asked,
    /// request-mode aggregates (3 exited, 2 errored, 1 crashed, 1 abnormal, and one more exited) and one session sent
    /// in two updates by hand (its start with `init`, then its end with an error), as a mobile SDK sends them.
    static let script = """
        import datetime, json, sys, urllib.request, uuid, sentry_sdk
        from sentry_sdk.utils import event_from_exception
        from sentry_sdk.sessions import track_session
        dsn, first, count, more = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
        release = "com.example.piratebay@3.1.0+310"
        sentry_sdk.init(dsn=dsn, release=release, environment="production", default_integrations=False,
                        auto_enabling_integrations=False)

        def session(i, kind, mode):
            with sentry_sdk.isolation_scope() as scope:
                sentry_sdk.set_user({"id": f"user-{i}"})
                scope.start_session(session_mode=mode)
                if kind == "errored":
                    try:
                        1 / 0
                    except ZeroDivisionError:
                        sentry_sdk.capture_exception()
                elif kind == "crashed":
                    try:
                        raise RuntimeError(f"boom {i}")
                    except RuntimeError as error:
                        event, hint = event_from_exception(error, client_options=sentry_sdk.get_client().options,
                                                           mechanism={"type": "test", "handled": False})
                        sentry_sdk.capture_event(event, hint=hint)
                elif kind == "crashed_by_hand":
                    scope._session.update(status="crashed")
                elif kind == "abnormal":
                    scope._session.update(status="abnormal")
                scope.end_session()

        kinds = ["exited", "errored", "crashed", "crashed_by_hand", "abnormal"]
        for i in range(first, first + count):
            session(i, kinds[i % len(kinds)], "application")
        if more:
            for i, kind in enumerate(["exited"] * 3 + ["errored"] * 2 + ["crashed", "abnormal"]):
                session(100 + i, kind, "request")
            with sentry_sdk.isolation_scope() as scope:
                with track_session(scope, session_mode="request"):
                    pass
        sentry_sdk.flush(timeout=20)

        if more:
            # One session in two updates, as mobile SDKs send them: its start, then its end with an error.
            parts = dsn.split("@")
            key = parts[0].split("//")[1]
            host, project = parts[1].rsplit("/", 1)
            sid = str(uuid.UUID(int=20261128))
            # An hour ago: serve counts, as Sentry does, sessions started in the last 5 days.
            started = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            for update in [{"sid": sid, "did": "user-multi", "init": True, "started": started, "status": "ok", "seq": 0,
                            "attrs": {"release": release, "environment": "production"}},
                           {"sid": sid, "did": "user-multi", "init": False, "started": started, "status": "exited",
                            "errors": 1, "seq": 1, "duration": 12.345678901234567, "attrs": {"release": release, "environment": "production"}}]:
                payload = json.dumps(update).encode()
                body = b"{}\\n" + json.dumps({"type": "session", "length": len(payload)}).encode() + b"\\n" + payload + b"\\n"
                request = urllib.request.Request(f"http://{host}/api/{project}/envelope/", data=body, method="POST",
                                                 headers={"X-Sentry-Auth": f"Sentry sentry_key={key}, sentry_version=7"})
                assert urllib.request.urlopen(request, timeout=20).status == 200
        """

    @Test(
        "Sessions sent by sentry-sdk are counted exactly, a session's updates once, and a restart of serve in between loses none",
        .enabled(
            if: SentrySDKTests.sdkAvailable || ConformanceSuite.isRequired, "python3 cannot import sentry_sdk (pip install sentry-sdk)"))
    func pythonSDKSessions() throws {
        // Given a service, and the SDK's script
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let python = try #require(CommandRunner.which("python3"), "python3 is not on the PATH")
        let folder = try TemporaryFolder("crashtrail-sessions")
        defer { folder.remove() }
        let store = folder.url.appendingPathComponent("store.sqlite")
        let scriptURL = try folder.write(Self.script, to: "sessions.py")

        // When ten sessions come to one service, and five more, aggregates and a session in two updates to the next
        for (first, count, more) in [(0, 10, "0"), (10, 5, "1")] {
            let serve = try ServeProcess(runner: runner, arguments: ["--store", store.path, "--quiet"], directory: folder.url)
            let sent = try python.run([scriptURL.path, serve.dsn, String(first), String(count), more])
            serve.stop(SIGTERM)
            serve.finish()
            try #require(sent.status == 0, "\(sent.stderr)")
        }

        // Then: 15 application sessions (6 crashed, 3 abnormal, 3 with a handled error), 8 aggregated (1 crashed,
        // 1 abnormal, 2 errored) and one in two updates (errored): 24 sessions, 16 users, 6 of whom crashed
        let health = try runner.run(["health", "--store", store.path, "--format", "json"])
        try #require(health.status == 0, "\(health.stderr)")
        #expect(
            health.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"[{"abnormal":4,"crashFreeSessions":70.83,"crashFreeUsers":62.50,"crashed":7,"errored":6,"release":"com.example.piratebay@3.1.0+310","sessions":24,"users":16}]"#
        )
        let text = try runner.run(["health", "--store", store.path])
        #expect(text.stdout.contains("70.83 % (17/24)"), "\(text.stdout)")
    }

    /// Sends ten application-mode sessions through sentry-sdk with a transport that sends each envelope carrying a
    /// session twice, as an SDK sends one again when the answer to the first was lost, and keeps those envelopes'
    /// bytes in a file; with `resend`, posts the kept envelopes again instead, as an app sends its disk cache at its
    /// next launch.
    static let retryScript = """
        import sys, urllib.request, sentry_sdk
        from sentry_sdk.transport import HttpTransport
        dsn, kept, resend = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
        parts = dsn.split("@")
        key = parts[0].split("//")[1]
        host, project = parts[1].rsplit("/", 1)
        if resend:
            for body in open(kept, "rb").read().split(b"\\n--envelope--\\n"):
                if body:
                    request = urllib.request.Request(f"http://{host}/api/{project}/envelope/", data=body, method="POST",
                                                     headers={"X-Sentry-Auth": f"Sentry sentry_key={key}, sentry_version=7"})
                    assert urllib.request.urlopen(request, timeout=20).status == 200
            sys.exit(0)

        class Retrying(HttpTransport):
            def capture_envelope(self, envelope):
                super().capture_envelope(envelope)
                if any(item.type == "session" for item in envelope.items):
                    with open(kept, "ab") as out:
                        out.write(envelope.serialize() + b"\\n--envelope--\\n")
                    super().capture_envelope(envelope)  # the same envelope again: the answer to the first was lost

        sentry_sdk.init(dsn=dsn, release="com.example.piratebay@3.1.0+311", environment="production", transport=Retrying,
                        default_integrations=False, auto_enabling_integrations=False)
        for i in range(10):
            with sentry_sdk.isolation_scope() as scope:
                sentry_sdk.set_user({"id": f"user-{i}"})
                scope.start_session(session_mode="application")
                if i % 5 == 1:
                    scope._session.update(status="crashed")
                elif i % 5 == 2:
                    scope._session.update(status="abnormal")
                scope.end_session()
        sentry_sdk.flush(timeout=20)
        """

    @Test(
        "A session update sent again, by sentry-sdk's retry or after a restart of serve, is counted once",
        .enabled(
            if: SentrySDKTests.sdkAvailable || ConformanceSuite.isRequired, "python3 cannot import sentry_sdk (pip install sentry-sdk)"))
    func resentSessionsCountOnce() throws {
        // Given a service, and the SDK's script with its retrying transport
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let python = try #require(CommandRunner.which("python3"), "python3 is not on the PATH")
        let folder = try TemporaryFolder("crashtrail-session-retries")
        defer { folder.remove() }
        let store = folder.url.appendingPathComponent("store.sqlite")
        let scriptURL = try folder.write(Self.retryScript, to: "retries.py")
        let kept = folder.url.appendingPathComponent("envelopes.bin").path

        // When ten sessions come, each envelope twice, then serve restarts and every session envelope comes once more
        for resend in ["0", "1"] {
            let serve = try ServeProcess(runner: runner, arguments: ["--store", store.path, "--quiet"], directory: folder.url)
            let sent = try python.run([scriptURL.path, serve.dsn, kept, resend])
            serve.stop(SIGTERM)
            serve.finish()
            try #require(sent.status == 0, "\(sent.stderr)")
        }

        // Then each session is counted once: 10 sessions of 10 users, 2 crashed, 2 abnormal
        let keptText = try String(contentsOfFile: kept, encoding: .isoLatin1)
        let sessionItems = keptText.components(separatedBy: #""type":"session""#).count - 1
        #expect(sessionItems >= 10, "the SDK's envelopes that were sent again held \(sessionItems) session items")
        let health = try runner.run(["health", "--store", store.path, "--format", "json"])
        try #require(health.status == 0, "\(health.stderr)")
        #expect(
            health.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"[{"abnormal":2,"crashFreeSessions":80.00,"crashFreeUsers":80.00,"crashed":2,"errored":0,"release":"com.example.piratebay@3.1.0+311","sessions":10,"users":10}]"#
        )
    }
}
