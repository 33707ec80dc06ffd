import CrashtrailSwiftUI
import ShopModel
import SwiftUI

/// The SwiftUI sample's entry point: one recorder for the process, a window of tabs.
@main @MainActor
struct ShopApp: App {
    @State private var session = try? ShopSession(folder: ShopSession.defaultFolder)

    var body: some Scene {
        WindowGroup {
            if let session {
                ShopRoot(session: session)
            } else {
                Text("crashtrail could not start: the app runs unrecorded")
            }
        }
    }
}

/// The tabs, each a NavigationStack over a typed path, and the sheet above them: recorded as they change.
struct ShopRoot: View {
    let session: ShopSession
    @State private var tab = 0
    @State private var paths: [[ShopDestination]] = [[], [], []]
    @State private var sheet: ShopDestination?

    var body: some View {
        TabView(selection: $tab) {
            ForEach(Array(ShopDestination.tabs.enumerated()), id: \.offset) { index, root in
                NavigationStack(path: $paths[index]) {
                    ShopScreen(destination: root, sheet: $sheet)
                        .navigationDestination(for: ShopDestination.self) { ShopScreen(destination: $0, sheet: $sheet) }
                }
                .tabItem { Text(root.title) }
                .tag(index)
            }
        }
        .sheet(item: $sheet) { ShopScreen(destination: $0, sheet: $sheet) }
        .recordingTrail(session.settler, tab: tab, roots: ShopDestination.tabs, paths: paths, sheets: sheet.map { [[$0]] } ?? [])
    }
}

/// One screen: its title, and the links it offers.
struct ShopScreen: View {
    let destination: ShopDestination
    @Binding var sheet: ShopDestination?

    var body: some View {
        List {
            switch destination {
            case .home:
                NavigationLink("Product 42", value: ShopDestination.product(id: "42"))
            case .product(let id):
                Button("Write a review") { sheet = .review(productID: id) }
            case .account:
                Button("Sign in") { sheet = .signIn }
            case .cart, .review, .signIn:
                EmptyView()
            }
        }
        .navigationTitle(destination.title)
    }
}

extension ShopDestination {
    /// The title a screen shows.
    var title: String {
        switch self {
        case .home: "Home"
        case .cart: "Cart"
        case .account: "Account"
        case .product(let id): "Product \(id)"
        case .review: "Review"
        case .signIn: "Sign in"
        }
    }
}
