import ArgumentParser
import CrashtrailReplay
import CrashtrailService

/// The output forms the libraries name, read from the command line; `--help` lists their values from the enums.
extension ReplayFormat: ExpressibleByArgument {}

extension TrailOutputForm: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(name: argument)
    }
}
