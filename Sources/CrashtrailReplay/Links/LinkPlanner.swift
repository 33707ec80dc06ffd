import CrashtrailCore

/// Works out the shortest links to a final state (SPEC section 9) without applying them.
struct LinkPlanner {
    let manifest: Manifest
    let final: NavigationState

    /// How a screen is rebuilt, which decides what its link must be able to do.
    enum Role {
        /// The root of a tab's stack, or of the stack without a tab bar.
        case stackRoot
        /// A destination pushed above a stack's or a modal's root.
        case aboveRoot
        /// The root of a modal.
        case modalRoot
        /// The pending destination, rebuilding the flow modal it waits on.
        case pending
    }

    /// One screen to link.
    struct Item {
        let destination: Destination
        let role: Role
        let location: String
    }

    /// A screen's link, or why it has none.
    enum Checked<Value> {
        case success(Value)
        case failure(UnreproducibleScreen.Reason)
    }

    struct Plan {
        var preconditions: Set<String>
        var links: [ShortestLinks.Link]
        var unreproducible: [UnreproducibleScreen]
    }

    /// The pending destination's link: the modal it rebuilds and the conditions it needs satisfied first.
    struct PendingLink {
        let modalIndex: Int
        let conditionsBefore: [String]
    }

    func plan() -> Plan {
        var unreproducible: [UnreproducibleScreen] = []
        var pendingLink: PendingLink?
        if let pending = final.pending {
            let preconditions = baseline(items(pendingLink: nil))
            switch resolve(pending.destination, preconditions: preconditions) {
            case .success(let link): pendingLink = link
            case .failure(let reason):
                unreproducible.append(UnreproducibleScreen(screen: pending.destination, reason: reason, location: "pending"))
            }
        }
        var preconditions = final.conditions
        var links: [ShortestLinks.Link] = []
        for item in items(pendingLink: pendingLink) {
            switch check(item) {
            case .success(let url):
                links.append(
                    ShortestLinks.Link(url: url, destination: item.destination, redacted: manifest.holdsStandIn(item.destination)))
                if item.role == .pending {
                    preconditions.formUnion(pendingLink?.conditionsBefore ?? [])
                } else {
                    preconditions.formUnion(manifest.spec(named: item.destination.name)?.requires ?? [])
                }
            case .failure(let reason):
                unreproducible.append(UnreproducibleScreen(screen: item.destination, reason: reason, location: item.location))
                return Plan(preconditions: preconditions, links: links, unreproducible: unreproducible)
            }
        }
        return Plan(preconditions: preconditions, links: links, unreproducible: unreproducible)
    }

    /// The final state's conditions plus every condition a linked screen (not the pending one) requires.
    private func baseline(_ items: [Item]) -> Set<String> {
        var conditions = final.conditions
        for item in items where item.role != .pending {
            conditions.formUnion(manifest.spec(named: item.destination.name)?.requires ?? [])
        }
        return conditions
    }

    /// The screens to link, in link order.
    func items(pendingLink: PendingLink?) -> [Item] {
        var items: [Item] = []
        if let tab = final.tab, manifest.hasTabs {
            for (index, stack) in final.stacks.enumerated() where index != tab && stack.count > 1 {
                items += stackItems(stack, field: "stacks[\(index)]", linkRoot: true)
            }
            let linkRoot = tab != 0 || !items.isEmpty
            if tab < final.stacks.count {
                items += stackItems(final.stacks[tab], field: "stacks[\(tab)]", linkRoot: linkRoot)
            }
        } else if let stack = final.stacks.first {
            let isLaunchRoot = !manifest.hasTabs && stack.first == Destination(manifest.root ?? "")
            items += stackItems(stack, field: "stacks[0]", linkRoot: !isLaunchRoot)
        }
        for (index, modal) in final.modals.enumerated() {
            let field = "modals[\(index)]"
            if let pendingLink, pendingLink.modalIndex == index, let pending = final.pending {
                items.append(Item(destination: pending.destination, role: .pending, location: "pending"))
            } else if let root = modal.first {
                items.append(Item(destination: root, role: .modalRoot, location: "\(field)[0]"))
            }
            for (position, destination) in modal.enumerated().dropFirst() {
                items.append(Item(destination: destination, role: .aboveRoot, location: "\(field)[\(position)]"))
            }
        }
        return items
    }

    private func stackItems(_ stack: [Destination], field: String, linkRoot: Bool) -> [Item] {
        var items: [Item] = []
        for (position, destination) in stack.enumerated() {
            if position == 0 {
                if linkRoot { items.append(Item(destination: destination, role: .stackRoot, location: "\(field)[0]")) }
            } else {
                items.append(Item(destination: destination, role: .aboveRoot, location: "\(field)[\(position)]"))
            }
        }
        return items
    }

    /// The modal the pending destination waits on: the topmost modal whose root is the flow of the first
    /// condition it requires that is not a precondition and has such a modal.
    private func resolve(_ pending: Destination, preconditions: Set<String>) -> Checked<PendingLink> {
        if case .failure(let reason) = url(for: pending) { return .failure(reason) }
        guard let spec = manifest.spec(named: pending.name) else { return .failure(.unknownDestination) }
        for (position, name) in spec.requires.enumerated() where !preconditions.contains(name) {
            guard let flow = manifest.condition(named: name)?.flow,
                let modalIndex = final.modals.lastIndex(where: { $0.first == Destination(flow) })
            else { continue }
            return .success(PendingLink(modalIndex: modalIndex, conditionsBefore: Array(spec.requires[..<position])))
        }
        return .failure(.pendingFlowUnreachable)
    }

    /// The URL of a screen in its role, or why it cannot be linked.
    private func check(_ item: Item) -> Checked<String> {
        let result = url(for: item.destination)
        guard case .success = result, let spec = manifest.spec(named: item.destination.name) else { return result }
        switch item.role {
        case .modalRoot where spec.presentation != .modal:
            return .failure(.modalRootNotModal)
        case .aboveRoot where spec.presentation == .modal:
            return .failure(.pushedModal)
        case .aboveRoot where spec.gate || manifest.tabIndex(of: spec.name) != nil:
            return .failure(.gateOrTabRootAboveRoot)
        default:
            return result
        }
    }

    /// The URL of a screen, checked to parse back to the same screen.
    private func url(for destination: Destination) -> Checked<String> {
        guard let spec = manifest.spec(named: destination.name) else { return .failure(.unknownDestination) }
        guard let url = manifest.url(for: destination) else {
            // A value a breadcrumb did not carry (SPEC section 15) is null: the link is not guessed.
            let unknown = (spec.route?.placeholders ?? []).contains { destination.value(atPath: $0.path) == .null }
            return .failure(unknown ? .unknownValue : .noURL)
        }
        guard manifest.destination(forURL: url) == destination else { return .failure(.urlNamesAnotherDestination) }
        return .success(url)
    }
}
