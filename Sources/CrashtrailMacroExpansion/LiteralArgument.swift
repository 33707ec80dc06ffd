import SwiftSyntax

/// Reads a macro argument that must be written as a literal: the macro sees syntax, not values, so `"a" + b` or a
/// constant's name cannot be read and is refused with a diagnostic.
enum LiteralArgument {
    /// The value of a string literal without interpolation.
    static func string(_ expression: ExprSyntax) -> String? {
        expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
    }

    /// The value of `true` or `false`.
    static func bool(_ expression: ExprSyntax) -> Bool? {
        guard let literal = expression.as(BooleanLiteralExprSyntax.self) else { return nil }
        return literal.literal.tokenKind == .keyword(.true)
    }

    /// The value of an integer literal (`500`, `1_000`).
    static func int(_ expression: ExprSyntax) -> Int? {
        guard let literal = expression.as(IntegerLiteralExprSyntax.self) else { return nil }
        return Int(String(literal.literal.text.filter { $0 != "_" }))
    }

    /// The strings of an array literal of string literals, each with its element's syntax for diagnostics.
    static func strings(_ expression: ExprSyntax) -> [(value: String, node: ExprSyntax)]? {
        guard let array = expression.as(ArrayExprSyntax.self) else { return nil }
        var result: [(value: String, node: ExprSyntax)] = []
        for element in array.elements {
            guard let value = string(element.expression) else { return nil }
            result.append((value, element.expression))
        }
        return result
    }

    /// The member name of `.modal` or `Manifest.Presentation.modal`.
    static func memberName(_ expression: ExprSyntax) -> String? {
        expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
    }
}
