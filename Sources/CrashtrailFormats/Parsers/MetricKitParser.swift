import CrashtrailCore
import CrashtrailReports

/// Reads a MetricKit `MXDiagnosticPayload` (its JSON representation): each crash diagnostic is one report; hang, CPU
/// exception, disk write and launch diagnostics are not crashes and are counted, not stored.
///
/// MetricKit gives numbers for the Mach exception and the signal, no symbols, and for each frame the binary's name,
/// its text segment's load address (`offsetIntoBinaryTextSegment`) and the frame's `address`. A crash's attributed
/// call stack is a chain from the crashing frame (the root) through each frame's first sub-frame to its callers.
enum MetricKitParser {
    private struct Payload: Decodable {
        struct MetaData: Decodable {
            var appVersion: String?
            var appBuildVersion: String?
            var bundleIdentifier: String?
            var osVersion: String?
            var deviceType: String?
            var exceptionType: LooseScalar?
            var exceptionCode: LooseScalar?
            var signal: LooseScalar?
            var terminationReason: String?
            var pid: LooseScalar?
            var objectiveCexceptionReason: Lenient<ObjectiveCException>?
        }
        /// The uncaught `NSException` (iOS 17 and later).
        struct ObjectiveCException: Decodable {
            var exceptionName: String?
            var composedMessage: String?
        }
        struct Frame: Decodable, Sendable {
            var binaryName: String?
            var binaryUUID: String?
            var offsetIntoBinaryTextSegment: LooseScalar?
            var address: LooseScalar?
            var subFrames: [Lenient<Frame>]?
        }
        struct CallStack: Decodable {
            var threadAttributed: Bool?
            var callStackRootFrames: [Lenient<Frame>]?
        }
        struct CallStackTree: Decodable { var callStacks: [Lenient<CallStack>]? }
        struct Diagnostic: Decodable {
            var diagnosticMetaData: Lenient<MetaData>?
            var callStackTree: Lenient<CallStackTree>?
            var timeStamp: String?
        }
        /// A diagnostic of another kind: only counted.
        struct Other: Decodable {}
        var timeStampBegin: String?
        var timeStampEnd: String?
        var crashDiagnostics: [Lenient<Diagnostic>]?
        var hangDiagnostics: [Lenient<Other>]?
        var cpuExceptionDiagnostics: [Lenient<Other>]?
        var diskWriteExceptionDiagnostics: [Lenient<Other>]?
        var appLaunchDiagnostics: [Lenient<Other>]?
    }

    /// The crash diagnostics of a payload, and how many diagnostics of other kinds it held.
    /// - Throws: `RejectionError` when the JSON is broken, or the payload holds no diagnostics at all.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, context: ParseContext
    ) throws(RejectionError) -> (payloads: [ParsedPayload], otherDiagnostics: Int) {
        let payload = try PayloadDecoder.decode(Payload.self, from: bytes, what: "the MetricKit diagnostic payload", context: context)
        let others = [
            payload.hangDiagnostics, payload.cpuExceptionDiagnostics, payload.diskWriteExceptionDiagnostics, payload.appLaunchDiagnostics,
        ]
        .reduce(0) { $0 + ($1?.count ?? 0) }
        let crashes = (payload.crashDiagnostics ?? []).enumerated().map { index, diagnostic in
            report(diagnostic.value, index: index, payloadTime: payload.timeStampEnd ?? payload.timeStampBegin)
        }
        guard !crashes.isEmpty || others > 0 else {
            throw RejectionError(
                .invalidReport, "the MetricKit diagnostic payload holds no diagnostics (crash, hang, CPU, disk write or launch)")
        }
        return (crashes, others)
    }

    private static func report(_ diagnostic: Payload.Diagnostic?, index: Int, payloadTime: String?) -> ParsedPayload {
        var parsed = ParsedPayload(format: .metrickit)
        parsed.diagnosticIndex = index
        let meta = diagnostic?.diagnosticMetaData?.value
        parsed.app = CrashReport.App(bundleID: meta?.bundleIdentifier, version: meta?.appVersion, build: meta?.appBuildVersion)
        parsed.os = CrashReport.OS.parsing(meta?.osVersion)
        parsed.device = meta?.deviceType
        parsed.time = Timestamp.normalized(diagnostic?.timeStamp ?? payloadTime)
        parsed.pid = meta?.pid?.int
        let mach = meta?.exceptionType?.int.flatMap(machException)
        let objectiveC = meta?.objectiveCexceptionReason?.value
        let language = objectiveC?.exceptionName.map { ExceptionInfo.Language(name: $0, reason: objectiveC?.composedMessage) }
        parsed.exception = ExceptionInfo(
            type: mach ?? language?.name, code: meta?.exceptionCode?.string, signal: meta?.signal?.int.flatMap(signalName),
            reason: language?.reason ?? meta?.terminationReason, mach: mach, language: language)
        let stacks = diagnostic?.callStackTree?.value?.callStacks ?? []
        let attributedIndex = stacks.firstIndex { $0.value?.threadAttributed == true } ?? (stacks.isEmpty ? nil : 0)
        let attributed = attributedIndex.flatMap { stacks[$0].value }
        parsed.crashedThread = attributedIndex
        var frame = attributed?.callStackRootFrames?.first?.value
        var depth = 0
        while let current = frame, depth < 512 {
            var offset: Int64?
            if let address = current.address?.int, let base = current.offsetIntoBinaryTextSegment?.int, base >= 0, address >= base {
                offset = address - base
            }
            parsed.frames.append(
                StackFrame(
                    image: current.binaryName, symbol: nil, offset: offset,
                    inApp: current.binaryName != nil && !SystemImages.isSystem(name: current.binaryName, path: nil)))
            if let name = current.binaryName, !parsed.binaryImages.contains(where: { $0.name == name }) {
                parsed.binaryImages.append(
                    BinaryImage(
                        name: name, uuid: current.binaryUUID,
                        loadAddress: current.offsetIntoBinaryTextSegment?.int.flatMap { $0 >= 0 ? UInt64($0) : nil }))
            }
            frame = current.subFrames?.first?.value
            depth += 1
        }
        return parsed
    }

    /// Mach exception types by number (`<mach/exception_types.h>`).
    static func machException(_ number: Int64) -> String? {
        let names: [Int64: String] = [
            1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 4: "EXC_EMULATION", 5: "EXC_SOFTWARE", 6: "EXC_BREAKPOINT",
            7: "EXC_SYSCALL", 8: "EXC_MACH_SYSCALL", 9: "EXC_RPC_ALERT", 10: "EXC_CRASH", 11: "EXC_RESOURCE", 12: "EXC_GUARD",
            13: "EXC_CORPSE_NOTIFY",
        ]
        return names[number] ?? "EXC_\(number)"
    }

    /// Darwin signal names by number (`<sys/signal.h>`).
    static func signalName(_ number: Int64) -> String? {
        let names = [
            "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGEMT", "SIGFPE", "SIGKILL", "SIGBUS", "SIGSEGV", "SIGSYS",
            "SIGPIPE", "SIGALRM", "SIGTERM", "SIGURG", "SIGSTOP", "SIGTSTP", "SIGCONT", "SIGCHLD", "SIGTTIN", "SIGTTOU", "SIGIO",
            "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGINFO", "SIGUSR1", "SIGUSR2",
        ]
        return number >= 1 && number <= Int64(names.count) ? names[Int(number - 1)] : "signal \(number)"
    }
}
