import CrashtrailAdapters
import CrashtrailSwiftUI

#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIn
#endif

/// docs/ADOPTING.md, step 4, SwiftUI: the app's tab view, its typed paths and its sheet, reported as they change.
struct ShopTabs<Content: View>: View {
    let settler: ScreenSettler
    let tab: Int
    let homePath: [AppDestination]
    let cartPath: [AppDestination]
    let accountPath: [AppDestination]
    let sheet: AppDestination?
    let content: Content

    var body: some View {
        content
            .recordingTrail(
                settler, tab: tab, roots: [.home, .cart, .account], paths: [homePath, cartPath, accountPath],
                sheets: sheet.map { [[$0]] } ?? [])
    }
}
