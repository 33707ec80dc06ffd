#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns mangled Swift and C++ symbol names into the names people read.
///
/// It uses the demanglers the process already has: the Swift runtime's `swift_demangle` (exported by libswiftCore on Apple platforms and on Linux) and the C++
/// runtime's `__cxa_demangle`. No dependency is added, and a name that does not demangle is kept as it is.
///
/// ```swift
/// Demangler.demangle("$s9iOS_Swift14ViewControllerC5crashyyF")   // "iOS_Swift.ViewController.crash() -> ()"
/// Demangler.demangle("_ZN10MyCPPClass16throwAnExceptionEv")     // "MyCPPClass::throwAnException()"
/// Demangler.demangle("-[UIView layoutSubviews]")                // nil: not mangled
/// ```
package enum Demangler {
    /// The demangled name of `symbol`, or nil when it is not a mangled Swift or C++ name (or does not demangle).
    package static func demangle(_ symbol: String) -> String? {
        // Most symbols are neither (`-[UIView layoutSubviews]`, `objc_msgSend`): one byte tells.
        guard let first = symbol.utf8.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "_") else { return nil }
        if isSwift(symbol) { return swift(symbol) }
        if isCxx(symbol) { return cxx(symbol) }
        return nil
    }

    /// `$s…`, `$S…`, `_$s…`, `_$S…` (Swift 4.2 and later), `_T0…` (Swift 4), `$e…` (embedded Swift).
    static func isSwift(_ symbol: String) -> Bool {
        let utf8 = symbol.utf8
        guard utf8.count > 3 else { return false }
        for prefix in ["$s", "$S", "_$s", "_$S", "_T0", "$e", "_$e"] where symbol.hasPrefix(prefix) { return true }
        return false
    }

    /// `_Z…` (Itanium C++ ABI), and `__Z…` as Apple's symbol tables write it.
    static func isCxx(_ symbol: String) -> Bool {
        symbol.count > 3 && (symbol.hasPrefix("_Z") || symbol.hasPrefix("__Z"))
    }

    private typealias SwiftDemangle =
        @convention(c) (
            UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
        ) -> UnsafeMutablePointer<CChar>?
    private typealias CxxDemangle =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int32>?
        ) -> UnsafeMutablePointer<CChar>?

    /// The runtimes' demanglers, looked up once in the running process.
    private static let swiftDemangle: SwiftDemangle? = symbol(named: "swift_demangle")
    private static let cxxDemangle: CxxDemangle? = symbol(named: "__cxa_demangle")

    private static func symbol<Function>(named name: String) -> Function? {
        #if canImport(Glibc)
        let handle = dlopen(nil, RTLD_NOW)
        #else
        let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #endif
        guard let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }

    private static func swift(_ symbol: String) -> String? {
        guard let swiftDemangle else { return nil }
        // The runtime's demangler expects the name without the leading underscore Apple's tables add.
        let name = symbol.hasPrefix("_$") ? String(symbol.dropFirst()) : symbol
        return name.withCString { pointer in
            guard let result = swiftDemangle(pointer, strlen(pointer), nil, nil, 0) else { return nil }
            defer { free(result) }
            let text = String(cString: result)
            return text == name ? nil : text
        }
    }

    private static func cxx(_ symbol: String) -> String? {
        guard let cxxDemangle else { return nil }
        let name = symbol.hasPrefix("__Z") ? String(symbol.dropFirst()) : symbol
        var status: Int32 = 0
        return name.withCString { pointer in
            guard let result = cxxDemangle(pointer, nil, nil, &status) else { return nil }
            defer { free(result) }
            return status == 0 ? String(cString: result) : nil
        }
    }
}
