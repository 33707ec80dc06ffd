import ArgumentParser

/// The `symbols` command: the debug files crashes are symbolicated with (SPEC section 16).
struct SymbolsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symbols",
        abstract: "Keep the debug files (dSYMs) that name the functions, files and lines of crashes' frames.",
        discussion: """
            Release builds ship stripped: a crash names the app's frames by image and offset. Add the app's dSYMs, \
            and every frame of those images gets its function, file and line, inlined functions included, at ingest, \
            in serve, and in the reports already stored. See docs/SYMBOLS.md.

              crashtrail symbols add build/PirateBay.app.dSYM
              crashtrail symbols add ~/Downloads/appDsyms.zip
              crashtrail symbols list --missing
            """,
        subcommands: [SymbolsAddCommand.self, SymbolsListCommand.self]
    )
}
