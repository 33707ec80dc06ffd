import CrashtrailCore

/// A crash the sample app can have: the same kind on another build or device groups under one signature.
struct CrashKind {
    var exceptionType: String
    var signal: String
    var code: String
    var reason: String?
    /// Top first: (image, symbol).
    var frames: [(image: String, symbol: String)]

    static let all: [CrashKind] = [
        CrashKind(
            exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", code: "KERN_INVALID_ADDRESS", reason: nil,
            frames: [
                ("libobjc.A.dylib", "objc_msgSend"), ("PirateBay", "ListingCell.configure(with:)"),
                ("PirateBay", "MarketplaceViewController.tableView(_:cellForRowAt:)"),
                ("UIKitCore", "-[UITableView _createPreparedCellForGlobalRow:withIndexPath:willDisplay:]"),
                ("UIKitCore", "-[UITableView _updateVisibleCellsNow:]"), ("QuartzCore", "CA::Layer::layout_if_needed(CA::Transaction*)"),
            ]),
        CrashKind(
            exceptionType: "NSInvalidArgumentException", signal: "SIGABRT", code: "0x0",
            reason: "-[__NSDictionaryM setObject:forKey:]: key cannot be nil",
            frames: [
                ("CoreFoundation", "__exceptionPreprocess"), ("libobjc.A.dylib", "objc_exception_throw"),
                ("CoreFoundation", "-[__NSDictionaryM setObject:forKey:]"), ("PirateBay", "OrderStore.record(_:)"),
                ("PirateBay", "CheckoutViewModel.placeOrder()"), ("PirateBay", "CheckoutView.body.getter"),
            ]),
        CrashKind(
            exceptionType: "EXC_BREAKPOINT", signal: "SIGTRAP", code: "0x1",
            reason: "Fatal error: Unexpectedly found nil while unwrapping an Optional value",
            frames: [
                ("libswiftCore.dylib", "_assertionFailure(_:_:file:line:flags:)"), ("PirateBay", "ProfileViewController.viewDidLoad()"),
                ("UIKitCore", "-[UIViewController _sendViewDidLoadWithAppearanceProxyObjectTaggingEnabled]"),
                ("UIKitCore", "-[UIViewController loadViewIfRequired]"),
            ]),
        CrashKind(
            exceptionType: "EXC_CRASH", signal: "SIGABRT", code: "0x0", reason: "Namespace SIGNAL, Code 6 Abort trap: 6",
            frames: [
                ("libsystem_kernel.dylib", "__pthread_kill"), ("libsystem_pthread.dylib", "pthread_kill"),
                ("libsystem_c.dylib", "abort"), ("PirateBay", "RumShopGate.verifyAge(_:)"),
                ("PirateBay", "AgeCheckFlow.complete(success:)"),
            ]),
        CrashKind(
            exceptionType: "EXC_BAD_ACCESS", signal: "SIGBUS", code: "EXC_ARM_DA_ALIGN", reason: nil,
            frames: [
                ("PirateBay", "ImageCache.decode(_:)"), ("PirateBay", "closure #1 in ImageCache.load(url:)"),
                ("libdispatch.dylib", "_dispatch_call_block_and_release"), ("libdispatch.dylib", "_dispatch_client_callout"),
            ]),
    ]
}
