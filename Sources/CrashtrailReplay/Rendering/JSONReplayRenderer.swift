import CrashtrailCore

/// The `json` format (SPEC section 9): one canonical JSON object and a newline.
enum JSONReplayRenderer {
    static func render(_ replay: Replay) -> String {
        CanonicalJSON.string(of: replay.jsonValue) + "\n"
    }
}
