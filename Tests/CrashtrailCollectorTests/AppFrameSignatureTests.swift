import CrashtrailReports
import CrashtrailTestSupport
import Testing

/// SPEC section 21: a signature names the app's frames, never the system's around them, and never `<redacted>`.
@Suite("Signatures from the app's code")
struct AppFrameSignatureTests {
    static let badAccess = ExceptionInfo(type: "EXC_BAD_ACCESS", signal: "SIGSEGV")

    static func app(_ symbol: String?, offset: Int64 = 100) -> StackFrame {
        StackFrame(image: "CrashLibiOS", symbol: symbol, offset: offset, inApp: true)
    }

    static func system(_ symbol: String?, image: String = "UIKit", offset: Int64 = 200) -> StackFrame {
        StackFrame(image: image, symbol: symbol, offset: offset, inApp: false)
    }

    /// The same app crash as two OS versions report it: iOS 10 hides UIKit's private symbols and runs the action from
    /// the run loop; iOS 11 names UIKit's and CoreFoundation's frames.
    static let iOS10 = [
        app("-[CRLCrashNULL crash]"), app("-[CRLDetailViewController doCrash]"), system("<redacted>", offset: 1000),
        system("<redacted>", offset: 2000), system("CFRunLoopRunSpecific", image: "CoreFoundation"), system("GSEventRunModal"),
        StackFrame(image: "CrashProbeiOS", symbol: "main", offset: 10, inApp: true),
    ]
    static let iOS11 = [
        system("objc_msgSend", image: "libobjc.A.dylib"), app("-[CRLCrashNULL crash]"), app("-[CRLDetailViewController doCrash]"),
        system("-[UIApplication sendAction:to:from:forEvent:]"), system("-[UIControl sendAction:to:forEvent:]"),
        StackFrame(image: "CrashProbeiOS", symbol: "main", offset: 12, inApp: true),
    ]

    @Test("The same app crash with the system frames of two OS versions has one signature, naming only the app's frames")
    func systemFramesNeverSplit() {
        let old = CrashSignature.make(exception: Self.badAccess, frames: Self.iOS10)
        let new = CrashSignature.make(exception: Self.badAccess, frames: Self.iOS11)
        #expect(old == new)
        #expect(old == "EXC_BAD_ACCESS/SIGSEGV @ -[CRLCrashNULL crash] < -[CRLDetailViewController doCrash]")
    }

    @Test("Up to three app frames are named, and main is not one of them")
    func threeAppFrames() {
        let frames = [Self.app("a"), Self.system("x"), Self.app("b"), Self.app("b"), Self.app("c"), Self.app("d")]
        #expect(CrashSignature.frameNames(frames) == ["a", "b", "c"])
        #expect(CrashSignature.frameNames([Self.app("a"), StackFrame(image: "App", symbol: "main", offset: 1, inApp: true)]) == ["a"])
    }

    @Test("A crash entirely in system code keeps its named system frames, never <redacted>")
    func systemOnlyCrash() {
        let frames = [
            Self.system("<redacted>", image: "libsystem_platform.dylib"),
            Self.system("_platform_memmove$VARIANT$Haswell", image: "libsystem_platform.dylib"),
            Self.system("???"), Self.system("pthread_getname_np", image: "libsystem_pthread.dylib"), Self.system("<redacted>"),
            Self.system("CFRunLoopRunSpecific"),
        ]
        #expect(
            CrashSignature.make(exception: Self.badAccess, frames: frames)
                == "EXC_BAD_ACCESS/SIGSEGV @ _platform_memmove < pthread_getname_np < CFRunLoopRunSpecific")
    }

    @Test("A system crash with no named frame is named by its images, not by offsets that change with the OS")
    func namelessSystemCrash() {
        let one = [Self.system(nil, image: "libsystem_kernel.dylib", offset: 10), Self.system("<redacted>", image: "UIKit", offset: 20)]
        let other = [Self.system(nil, image: "libsystem_kernel.dylib", offset: 30), Self.system("<redacted>", image: "UIKit", offset: 40)]
        #expect(CrashSignature.make(exception: Self.badAccess, frames: one) == "EXC_BAD_ACCESS/SIGSEGV @ libsystem_kernel.dylib < UIKit")
        #expect(
            CrashSignature.make(exception: Self.badAccess, frames: one) == CrashSignature.make(exception: Self.badAccess, frames: other))
    }

    @Test("An app frame without a symbol is named by its image and offset, which one build keeps")
    func unsymbolicatedAppFrames() {
        let frames = [Self.system("<redacted>"), Self.app(nil, offset: 4096), Self.app("-[CRLDetailViewController doCrash]")]
        #expect(
            CrashSignature.make(exception: Self.badAccess, frames: frames)
                == "EXC_BAD_ACCESS/SIGSEGV @ CrashLibiOS+4096 < -[CRLDetailViewController doCrash]")
    }

    @Test("No signature names <redacted>, whatever the frames", arguments: 0..<64)
    func neverRedacted(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed) &+ 1)
        let names = ["<redacted>", "objc_msgSend", "???", nil, "CFRunLoopRunSpecific", "crash", "main"]
        let frames = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
            StackFrame(
                image: Bool.random(using: &generator) ? "UIKit" : "App", symbol: names.randomElement(using: &generator)!,
                offset: Int64.random(in: 0...1000, using: &generator), inApp: Bool.random(using: &generator))
        }
        let signature = CrashSignature.make(exception: Self.badAccess, frames: frames)
        #expect(!signature.contains("<redacted>"), "\(frames)")
        #expect(!signature.contains("???"), "\(frames)")
    }
}
