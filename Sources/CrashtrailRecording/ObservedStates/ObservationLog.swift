import CrashtrailCore

/// The observations an app that keeps its own navigation reported, one JSON object a line, made into a trail
/// (`crashtrail trail from-states`).
package enum ObservationLog {
    /// A line of observations that is not valid, named by its source and line.
    package struct LineError: CrashtrailError, Hashable {
        /// What kind of problem it was.
        package struct Code: ErrorCode {
            package let name: String
            package init(name: String) { self.name = name }

            /// The line is not an observation, or one that cannot follow the one before.
            package static let invalidObservation = Code(name: "invalid-observation")
        }

        package var code: Code
        /// The source and line, as `states.ndjson, line 3`.
        package var location: String?
        package var message: String

        /// - Parameters:
        ///   - code: the kind of problem.
        ///   - location: the source and line.
        ///   - message: what is wrong with the line.
        package init(_ code: Code, location: String, _ message: String) {
            self.code = code
            self.location = location
            self.message = message
        }
    }

    /// The trail the observations in `bytes` make: one `{"t": MS, "state": STATE}` a line (SPEC section 11).
    ///
    /// The trail's base is the first state (absent when it is the launch state), its final the last, and each change
    /// becomes the fewest steps that reach it.
    /// - Throws: `LineError` naming the source and line.
    package static func trail(fromLines bytes: [UInt8], manifest: Manifest, app: Trail.AppInfo, session: Trail.Session, source: String)
        throws -> Trail
    {
        var diff: ObservedStateDiff?
        var base: NavigationState?
        var last: NavigationState?
        var previous: Int64 = 0
        var steps: [Step] = []
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            func fail(_ message: String) -> LineError { LineError(.invalidObservation, location: "\(source), line \(number)", message) }
            guard line.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
            let value: JSONValue
            do {
                value = try JSONParser.parse(Array(line))
            } catch {
                throw fail("not JSON: \(error)")
            }
            guard let object = value.objectValue, Set(object.keys) == ["t", "state"], let t = object["t"]?.intValue,
                let stateValue = object["state"]
            else {
                throw fail("an observation is exactly {\"t\": MS, \"state\": STATE}, t an integer")
            }
            let state: NavigationState
            do {
                state = try NavigationState(jsonValue: stateValue, path: "state")
            } catch {
                throw fail("the state is not valid: \(error)")
            }
            do {
                if var current = diff {
                    steps += try current.steps(to: state, at: t, after: previous)
                    diff = current
                } else {
                    guard t >= 0 else { throw fail("t is \(t); times count milliseconds since the session started") }
                    diff = try ObservedStateDiff(manifest: manifest, first: state)
                    base = state
                }
            } catch let error as ObservedStateError {
                throw fail(error.message)
            }
            previous = t
            last = state
        }
        guard let base else {
            throw LineError(.invalidObservation, location: source, "no observation; give one {\"t\": MS, \"state\": STATE} a line")
        }
        return Trail(app: app, session: session, base: base == manifest.launchState ? nil : base, steps: steps, final: last)
    }
}
